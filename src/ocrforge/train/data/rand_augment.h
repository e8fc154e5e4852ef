// PaddleOCR's RandAugment (ppocr/data/imaug/randaugment.py), listed by the
// classifier configs (cls_mv3.yml, ch_PP-OCRv3_rotnet.yml): with probability
// `prob`, `num_layers` operations drawn uniformly (with repeats) from the 14
// of AutoAugment's list, each at the strength `magnitude` / 10 of its range,
// with a random sign where the operation has one.
//
// PaddleOCR runs PIL on the decoded BGR array as if it were RGB; the
// operations here are PIL's on the same bytes (the grey level of colour,
// contrast and equalize uses PIL's 299/587/114 weights on channels 0/1/2,
// whatever they hold), so a sample sees what it would see in PaddleOCR.
// Geometry: PIL's affine maps each output pixel (x, y) to the input pixel
// (a x + b y + c, d x + e y + f); shears sample bicubically, translations
// and the rotation take the nearest pixel; uncovered pixels get grey 128.
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"

namespace YAML {
class Node;
}

namespace ocrforge {

// Config keys (PaddleOCR's constructor arguments): prob, num_layers, magnitude.
struct RandAugmentParams {
  double prob = 0.5;   // PaddleOCR's defaults
  int num_layers = 2;
  double magnitude = 5;  // of max_level 10
};

// The names of the operations, in PaddleOCR's order (the draw indexes it).
const std::vector<std::string>& rand_augment_ops();

// One operation on an 8-bit 3-channel image at `magnitude` (absolute level:
// magnitude / 10), `sign` +1 or -1 where the operation has a direction.
// Exposed for tests.
cv::Mat rand_augment_op(const cv::Mat& img, const std::string& op, double magnitude, int sign);

// The transform: `img` 8-bit, 3 channels (other images are returned unchanged).
cv::Mat rand_augment(const cv::Mat& img, const RandAugmentParams& p, DataRng& rng);

// The RandAugment entry of a transform list (`params` may be null; `path`
// names it in errors). UsageError for an unknown key or a value out of range.
RandAugmentParams rand_augment_from_yaml(const YAML::Node& params, const std::string& path);

}  // namespace ocrforge
