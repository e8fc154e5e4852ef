// Recognition / classification input: PaddleOCR's resize_norm_img.
#pragma once
#include <opencv2/core.hpp>

namespace ocrforge {

// Resizes `bgr` (8-bit, 3 channels) to height img_h keeping the aspect ratio,
// width w' = min(img_w, ceil(img_h * w / h)), bilinear; scales to [-1, 1]
// ((x/255 - 0.5) / 0.5); writes 3 x img_h x img_w floats (CHW, BGR order) into
// `dst`, zero-padded on the right. Returns w' / img_w (valid_ratio).
float rec_resize_normalize(const cv::Mat& bgr, int img_h, int img_w, float* dst);

// PaddleOCR 3.x caps the recognition input width (PaddleX's
// OCRReisizeNormImg, max_imgW = 3200): a line that would be wider at the
// model's height is squeezed to exactly 3200 x img_h. Without the cap a
// 30000 x 16 picture becomes a 90000-wide input that keeps the model busy
// for minutes.
constexpr int kRecMaxWidth = 3200;

// `crop` unchanged when img_h * w / h <= kRecMaxWidth; otherwise resized
// (bilinear) to kRecMaxWidth x img_h, so that batching it gives PaddleOCR's
// capped input. Call it on every crop before recognition.
cv::Mat cap_rec_width(const cv::Mat& crop, int img_h);

}  // namespace ocrforge
