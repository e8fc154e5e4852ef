// PaddleOCR's RecAug (TIA + BaseDataAugmentation) for recognition crops.
#pragma once
#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

// Probabilities of each step (PaddleOCR's defaults: all 0.4).
struct RecAugParams {
  double tia_prob = 0.4;      // TIA distort + stretch (h, w >= 20), then perspective
  double crop_prob = 0.4;     // cut 1..8 rows off the top or the bottom (h, w >= 20)
  double reverse_prob = 0.4;  // 255 - pixel
  double noise_prob = 0.4;    // gaussian noise, var 0.1, scaled by 0.5
  double jitter_prob = 0.4;   // diagonal smear by up to 1% of min(h, w)
  double blur_prob = 0.4;     // 5x5 gaussian, sigma 1 (h, w > 10)
  double hsv_aug_prob = 0.4;  // value channel scaled by 1 +- 0.001
};

// Applies the steps in PaddleOCR's order (TIA, crop, blur, HSV, jitter,
// noise, reverse), each drawn with `rng`. `bgr`: 8-bit, 3 channels, not
// modified. The result is 8-bit BGR with the same width; crop makes it up to
// 8 rows shorter.
cv::Mat rec_aug(const cv::Mat& bgr, const RecAugParams& params, DataRng& rng);

}  // namespace ocrforge
