// NormalizeImage + ToCHWImage (det_transforms.h).
#include "ocrforge/train/data/det_transforms.h"

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

}  // namespace ocrforge
