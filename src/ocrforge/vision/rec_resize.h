// Recognition / classification input: PaddleOCR's resize_norm_img.
#pragma once
#include <opencv2/core.hpp>

namespace ocrforge {

// Resizes `bgr` (8-bit, 3 channels) to height img_h keeping the aspect ratio,
// width w' = min(img_w, ceil(img_h * w / h)), bilinear; scales to [-1, 1]
// ((x/255 - 0.5) / 0.5); writes 3 x img_h x img_w floats (CHW, BGR order) into
// `dst`, zero-padded on the right. Returns w' / img_w (valid_ratio).
float rec_resize_normalize(const cv::Mat& bgr, int img_h, int img_w, float* dst);

}  // namespace ocrforge
