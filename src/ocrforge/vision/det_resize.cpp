// Detector input preparation (PaddleOCR's DetResizeForTest + NormalizeImage +
// ToCHWImage). Arithmetic follows the Python code's types: the size logic in
// double (Python floats), the normalisation in float32 (NumPy float32 arrays).
#include "ocrforge/vision/det_resize.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

// Python's round() (half to even) of side / 32, times 32, at least 32.
int round_to_32(int side) {
  const int r = static_cast<int>(std::nearbyint(side / 32.0)) * 32;
  return std::max(r, 32);
}

// The detector reads BGR; accept gray / BGRA too instead of failing deep inside.
cv::Mat to_bgr(const cv::Mat& img) {
  if (img.empty()) throw Error("det_preprocess: the image is empty");
  if (img.depth() != CV_8U) throw Error("det_preprocess: the image must be 8-bit");
  if (img.channels() == 3) return img;
  cv::Mat bgr;
  if (img.channels() == 1) cv::cvtColor(img, bgr, cv::COLOR_GRAY2BGR);
  else if (img.channels() == 4) cv::cvtColor(img, bgr, cv::COLOR_BGRA2BGR);
  else throw Error("det_preprocess: the image must have 1, 3 or 4 channels");
  return bgr;
}

}  // namespace

cv::Size det_target_size(cv::Size src, const DetResizeParams& p) {
  const int h = src.height, w = src.width;
  double ratio = 1.0;
  if (p.limit_type == DetLimitType::Max) {
    if (std::max(h, w) > p.limit_side_len) ratio = static_cast<double>(p.limit_side_len) / std::max(h, w);
  } else {
    if (std::min(h, w) < p.limit_side_len) ratio = static_cast<double>(p.limit_side_len) / std::min(h, w);
  }
  int rh = static_cast<int>(h * ratio);
  int rw = static_cast<int>(w * ratio);
  // PaddleOCR 3.x caps huge inputs before the multiple-of-32 rounding.
  if (std::max(rh, rw) > p.max_side_limit) {
    const double cap = static_cast<double>(p.max_side_limit) / std::max(rh, rw);
    rh = static_cast<int>(rh * cap);
    rw = static_cast<int>(rw * cap);
  }
  return {round_to_32(rw), round_to_32(rh)};
}

DetInput det_preprocess(const cv::Mat& bgr, const DetResizeParams& p) {
  DetInput out;
  std::vector<unsigned char> resized_bytes;
  det_preprocess_into(bgr, p, out, resized_bytes);
  return out;
}

void det_preprocess_into(const cv::Mat& bgr_in, const DetResizeParams& p, DetInput& out,
                         std::vector<unsigned char>& resized_bytes) {
  const cv::Mat bgr = to_bgr(bgr_in);
  out.size = det_target_size(bgr.size(), p);
  // A Mat over the caller's bytes of exactly this size and type: cv::resize
  // writes into it without allocating.
  resized_bytes.resize(static_cast<size_t>(out.size.height) * out.size.width * 3);
  cv::Mat resized(out.size, CV_8UC3, resized_bytes.data());
  cv::resize(bgr, resized, out.size, 0, 0, cv::INTER_LINEAR);
  CV_Assert(resized.data == resized_bytes.data());
  out.ratio_h = static_cast<float>(static_cast<double>(out.size.height) / bgr.rows);
  out.ratio_w = static_cast<float>(static_cast<double>(out.size.width) / bgr.cols);

  // Only 256 possible inputs per channel: a table gives NumPy's float32
  // result ((x * float32(1/255) - mean) / std) exactly and cheaply.
  const float scale = static_cast<float>(1.0 / 255.0);
  const float mean[3] = {0.485f, 0.456f, 0.406f};
  const float stdv[3] = {0.229f, 0.224f, 0.225f};
  std::array<std::array<float, 256>, 3> lut;
  for (int c = 0; c < 3; ++c)
    for (int v = 0; v < 256; ++v) lut[c][v] = (static_cast<float>(v) * scale - mean[c]) / stdv[c];

  const int H = out.size.height, W = out.size.width;
  const size_t plane = static_cast<size_t>(H) * W;
  out.chw.resize(3 * plane);
  for (int y = 0; y < H; ++y) {
    const uchar* row = resized.ptr<uchar>(y);
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < 3; ++c)
        out.chw[c * plane + static_cast<size_t>(y) * W + x] = lut[c][row[3 * x + c]];
  }
}

}  // namespace ocrforge
