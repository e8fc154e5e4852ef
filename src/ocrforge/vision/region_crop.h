// Cutting a labelled text region (a detection label's polygon) out of its
// image as a recognition crop, straightened the way the OCR pipeline
// straightens detected boxes, so a recogniser is fine-tuned on crops that
// look like the ones it will see: 4 points -> ordered clockwise from the
// top-left, then rotate_crop (PaddleOCR's get_rotate_crop_image); any other
// point count -> its minimum-area rectangle (get_minarea_rect_crop), then the
// same.
#pragma once
#include <array>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

// A region may be at most this many times its image's pixel count.
constexpr double kMaxRegionImageRatio = 4.0;

// `points` in the pixels of `image` (>= 3). Returns an empty Mat when the
// straightened region is thinner than `min_side` pixels (degenerate label).
// Throws Error when the straightened region would have more than
// kMaxRegionImageRatio times the image's pixels (points far outside it).
cv::Mat crop_label_region(const cv::Mat& image, const std::vector<std::array<float, 2>>& points, int min_side = 2);

}  // namespace ocrforge
