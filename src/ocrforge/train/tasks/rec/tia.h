// TIA (Text Image Augmentation, Luo et al. 2020) geometric warps used by
// PaddleOCR's RecAug. Same control points and random motion ranges as
// PaddleOCR's tia_distort / tia_stretch / tia_perspective; the warp itself
// differs (see docs/data.md):
//   - distort / stretch: the output pixel at a control point's regular
//     position samples the source displaced by (regular - moved) position,
//     with the displacement interpolated bilinearly between control points
//     (PaddleOCR interpolates a moving-least-squares warp evaluated on a
//     100-pixel grid). This is a first-order inverse of the same motion.
//   - perspective: the exact homography taking the 4 corners to their
//     moved positions (PaddleOCR approximates it with the same MLS warp).
// Inputs are 8-bit BGR crops; outputs keep the input size; borders replicate
// (PaddleOCR clips sample coordinates to the image).
#pragma once
#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

// Top and bottom edges cut into `segment` pieces; corners move inwards and
// inner control points move by up to (width / segment / 3) / 2 either way.
cv::Mat tia_distort(const cv::Mat& src, int segment, DataRng& rng);
// Inner control columns move horizontally together by up to
// (width / segment * 4 / 5) / 2 either way: letters widen and narrow.
cv::Mat tia_stretch(const cv::Mat& src, int segment, DataRng& rng);
// Each corner moves vertically inwards by up to height / 2.
cv::Mat tia_perspective(const cv::Mat& src, DataRng& rng);

}  // namespace ocrforge
