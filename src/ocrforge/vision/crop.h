// Cutting text lines out of the image for classification and recognition.
#pragma once
#include <opencv2/core.hpp>

#include "ocrforge/vision/text_box.h"

namespace ocrforge {

// PaddleOCR's get_rotate_crop_image: width = max of the two horizontal edge
// lengths, height = max of the two vertical edge lengths (truncated to int),
// perspective warp with cubic interpolation and replicated border; the crop
// is rotated 90 degrees (counter-clockwise, np.rot90) when height/width >= 1.5.
cv::Mat rotate_crop(const cv::Mat& image, const Quad& quad);

// Rotates a crop by 180 degrees (direction classifier said "180").
cv::Mat rotate_180(const cv::Mat& crop);

}  // namespace ocrforge
