// Crops are batched in order of width/height so that each batch pads little
// (PaddleOCR's predict_rec / predict_cls do the same); results go back to the
// original order.
#pragma once
#include <algorithm>
#include <numeric>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

inline float aspect_ratio(const cv::Mat& m) {
  return m.rows > 0 ? static_cast<float>(m.cols) / static_cast<float>(m.rows) : 0.f;
}

// Indices of `crops` sorted by ascending width/height (stable).
inline std::vector<size_t> order_by_aspect_ratio(const std::vector<cv::Mat>& crops) {
  std::vector<size_t> idx(crops.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](size_t a, size_t b) { return aspect_ratio(crops[a]) < aspect_ratio(crops[b]); });
  return idx;
}

}  // namespace ocrforge
