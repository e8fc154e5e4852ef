// Recognition / classification input (PaddleOCR's resize_norm_img): keep the
// aspect ratio at the model's height, pad the width with zeros.
#include "ocrforge/vision/rec_resize.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

float rec_resize_normalize(const cv::Mat& img, int img_h, int img_w, float* dst) {
  if (img.empty()) throw Error("rec_resize_normalize: the image is empty");
  if (img.depth() != CV_8U) throw Error("rec_resize_normalize: the image must be 8-bit");
  if (img_h <= 0 || img_w <= 0) throw Error("rec_resize_normalize: the target size must be positive");
  cv::Mat bgr = img;
  if (img.channels() == 1) cv::cvtColor(img, bgr, cv::COLOR_GRAY2BGR);
  else if (img.channels() == 4) cv::cvtColor(img, bgr, cv::COLOR_BGRA2BGR);
  else if (img.channels() != 3) throw Error("rec_resize_normalize: the image must have 1, 3 or 4 channels");

  // Python: ratio = w / float(h); math.ceil(imgH * ratio) in double.
  const double ratio = static_cast<double>(bgr.cols) / bgr.rows;
  const double want = std::ceil(img_h * ratio);
  const int resized_w = want > img_w ? img_w : static_cast<int>(want);
  cv::Mat resized;
  cv::resize(bgr, resized, cv::Size(resized_w, img_h), 0, 0, cv::INTER_LINEAR);

  // float32 arithmetic as in NumPy: x / 255, -= 0.5, /= 0.5.
  std::array<float, 256> lut;
  for (int v = 0; v < 256; ++v) lut[v] = (static_cast<float>(v) / 255.0f - 0.5f) / 0.5f;

  const size_t plane = static_cast<size_t>(img_h) * img_w;
  std::fill(dst, dst + 3 * plane, 0.0f);
  for (int y = 0; y < img_h; ++y) {
    const uchar* row = resized.ptr<uchar>(y);
    for (int x = 0; x < resized_w; ++x)
      for (int c = 0; c < 3; ++c) dst[c * plane + static_cast<size_t>(y) * img_w + x] = lut[row[3 * x + c]];
  }
  return std::min(1.0f, static_cast<float>(resized_w) / img_w);
}

cv::Mat cap_rec_width(const cv::Mat& crop, int img_h) {
  if (crop.empty() || img_h <= 0) return crop;
  const double width_at_h = static_cast<double>(img_h) * crop.cols / crop.rows;
  if (width_at_h <= kRecMaxWidth) return crop;
  cv::Mat out;
  cv::resize(crop, out, cv::Size(kRecMaxWidth, img_h), 0, 0, cv::INTER_LINEAR);
  return out;
}

}  // namespace ocrforge
