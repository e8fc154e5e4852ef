// Geometric augmentation of a detection sample: PaddleOCR's IaaAugment (its
// imgaug augmenters Fliplr, Affine rotate, Resize, applied in list order)
// and EastRandomCropData. Image and polygons change together; random draws
// come only from the DataRng passed in.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/train/tasks/det/det_polygon.h"

namespace ocrforge {

// One imgaug augmenter of IaaAugment's augmenter_args.
struct DetIaaStep {
  enum class Kind {
    kFliplr,  // mirror left-right with probability p: x -> width - x (imgaug's keypoint rule)
    kAffine,  // rotate by an angle uniform in [lo, hi] degrees about the image centre, same
              // size, bilinear, black fill (imgaug Affine(rotate=...))
    kResize,  // scale both sides by one factor uniform in [lo, hi], bicubic (imgaug Resize(size=...))
  };
  Kind kind = Kind::kFliplr;
  double p = 0.5;   // kFliplr
  double lo = 0.0;  // kAffine: degrees; kResize: factor
  double hi = 0.0;
};

// PaddleOCR's default augmenter_args: Fliplr 0.5, Affine rotate [-10, 10], Resize [0.5, 3].
std::vector<DetIaaStep> default_iaa_steps();

// Applies `steps` in order to the 8-bit image and every polygon.
void iaa_augment(const std::vector<DetIaaStep>& steps, DataRng& rng, cv::Mat* image, std::vector<DetPolygon>* polys);

struct DetCropParams {
  int width = 640, height = 640;     // `size: [w, h]`: the output image size
  int max_tries = 50;                // random crop attempts before the whole image is used
  double min_crop_side_ratio = 0.1;  // a crop side must be at least this fraction of the image side
  bool keep_ratio = true;            // scale to fit and pad right/bottom with 0 (image at top-left)
};

// EastRandomCropData: picks a crop whose edges do not cut through a
// cared-for polygon's box and that touches at least one of them (else the
// whole image), scales it into width x height, and drops the polygons
// (and their ignore flags) that end up entirely outside the scaled crop.
void east_random_crop(const DetCropParams& p, DataRng& rng, cv::Mat* image, std::vector<DetPolygon>* polys,
                      std::vector<bool>* ignore);

}  // namespace ocrforge
