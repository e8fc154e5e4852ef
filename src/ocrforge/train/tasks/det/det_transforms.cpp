// Resize, NormalizeImage + ToCHWImage (det_transforms.h).
#include "ocrforge/train/tasks/det/det_transforms.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "ocrforge/core/error.h"

namespace ocrforge {

std::vector<float> det_normalize_to_chw(const cv::Mat& bgr, const DetNormalizeParams& p) {
  if (bgr.type() != CV_8UC3) throw Error("NormalizeImage: expected an 8-bit 3-channel image");
  // 256 inputs per channel: a table gives NumPy's float32 result exactly.
  const float scale = static_cast<float>(p.scale);
  std::array<std::array<float, 256>, 3> lut;
  for (int c = 0; c < 3; ++c) {
    const float mean = static_cast<float>(p.mean[c]), sd = static_cast<float>(p.std[c]);
    for (int v = 0; v < 256; ++v) lut[c][v] = (static_cast<float>(v) * scale - mean) / sd;
  }
  const int H = bgr.rows, W = bgr.cols;
  const size_t plane = static_cast<size_t>(H) * W;
  std::vector<float> chw(3 * plane);
  for (int y = 0; y < H; ++y) {
    const uchar* row = bgr.ptr<uchar>(y);
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < 3; ++c) chw[c * plane + static_cast<size_t>(y) * W + x] = lut[c][row[3 * x + c]];
  }
  return chw;
}

void det_resize_with_polygons(cv::Size size, cv::Mat* img, std::vector<DetPolygon>* polys) {
  const double rx = static_cast<double>(size.width) / img->cols, ry = static_cast<double>(size.height) / img->rows;
  cv::Mat resized;
  cv::resize(*img, resized, size, 0, 0, cv::INTER_LINEAR);
  *img = resized;
  for (DetPolygon& poly : *polys)
    for (cv::Point2f& pt : poly) pt = cv::Point2f(static_cast<float>(pt.x * rx), static_cast<float>(pt.y * ry));
}

cv::Size det_eval_target_size(cv::Size src, const DetTransformSpec& spec) {
  if (spec.eval_fixed_size.area() <= 0 && spec.eval_resize_long > 0 && src.area() > 0) {
    const double ratio = static_cast<double>(spec.eval_resize_long) / (src.height > src.width ? src.height : src.width);
    // int() then (x + 127) // 128 * 128, as PaddleOCR's resize_image_type2;
    // a side that truncates to 0 (PaddleOCR's cv2.resize would fail) gets 128.
    const auto up128 = [](double side) { return std::max(128, (static_cast<int>(side) + 127) / 128 * 128); };
    return {up128(src.width * ratio), up128(src.height * ratio)};
  }
  if (spec.eval_fixed_size.area() <= 0) return det_target_size(src, spec.eval_resize);
  const int h = spec.eval_fixed_size.height;
  int w = spec.eval_fixed_size.width;
  if (spec.eval_keep_ratio && src.height > 0) {
    const double scaled = static_cast<double>(src.width) * h / src.height;
    w = static_cast<int>(std::ceil(scaled / 32.0)) * 32;  // PaddleOCR: N = ceil(w / 32), w = N * 32
  }
  return {std::max(1, w), h};
}

}  // namespace ocrforge
