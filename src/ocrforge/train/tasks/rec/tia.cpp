// TIA warps: random control-point motion as in PaddleOCR's text_image_aug,
// realised with a bilinear displacement field or a homography (tia.h says why).
#include "ocrforge/train/tasks/rec/tia.h"

#include <algorithm>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

namespace {

// Control points on the top (y = 0) and bottom (y = h) edges at columns xs;
// d_top / d_bottom: how far the output at that control point reaches into
// the source (regular position minus moved position).
struct EdgeField {
  std::vector<float> xs;
  std::vector<cv::Point2f> d_top, d_bottom;
};

// Samples `src` through the displacement field: piecewise linear in x
// between control columns, linear in y between the two edges.
cv::Mat warp_by_field(const cv::Mat& src, const EdgeField& f) {
  const int h = src.rows, w = src.cols;
  cv::Mat map_x(h, w, CV_32F), map_y(h, w, CV_32F);
  size_t seg = 0;
  std::vector<cv::Point2f> top(static_cast<size_t>(w)), bottom(static_cast<size_t>(w));
  for (int x = 0; x < w; ++x) {
    while (seg + 2 < f.xs.size() && x > f.xs[seg + 1]) ++seg;
    const float x0 = f.xs[seg], x1 = f.xs[seg + 1];
    const float t = x1 > x0 ? std::clamp((x - x0) / (x1 - x0), 0.0f, 1.0f) : 0.0f;
    top[x] = f.d_top[seg] * (1 - t) + f.d_top[seg + 1] * t;
    bottom[x] = f.d_bottom[seg] * (1 - t) + f.d_bottom[seg + 1] * t;
  }
  for (int y = 0; y < h; ++y) {
    const float v = h > 1 ? static_cast<float>(y) / (h - 1) : 0.0f;
    float* mx = map_x.ptr<float>(y);
    float* my = map_y.ptr<float>(y);
    for (int x = 0; x < w; ++x) {
      const cv::Point2f d = top[x] * (1 - v) + bottom[x] * v;
      mx[x] = x + d.x;
      my[x] = y + d.y;
    }
  }
  cv::Mat out;
  cv::remap(src, out, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return out;
}

// Regular control columns 0, cut, 2*cut, ..., w (PaddleOCR's layout).
std::vector<float> control_columns(int w, int segment) {
  const int cut = w / segment;
  std::vector<float> xs{0.0f};
  for (int i = 1; i < segment; ++i) xs.push_back(static_cast<float>(cut * i));
  xs.push_back(static_cast<float>(w));
  return xs;
}

}  // namespace

cv::Mat tia_distort(const cv::Mat& src, int segment, DataRng& rng) {
  const int w = src.cols;
  segment = std::max(1, segment);
  const int thresh = w / segment / 3;
  const float half = thresh * 0.5f;
  EdgeField f;
  f.xs = control_columns(w, segment);
  const size_t n = f.xs.size();
  f.d_top.resize(n);
  f.d_bottom.resize(n);
  // Corners move inwards by [0, thresh): the output corner reaches outside the source.
  const float l_top_x = rng.below(thresh), l_top_y = rng.below(thresh);
  const float r_top_x = rng.below(thresh), r_top_y = rng.below(thresh);
  const float r_bot_x = rng.below(thresh), r_bot_y = rng.below(thresh);
  const float l_bot_x = rng.below(thresh), l_bot_y = rng.below(thresh);
  f.d_top[0] = {-l_top_x, -l_top_y};
  f.d_top[n - 1] = {r_top_x, -r_top_y};
  f.d_bottom[n - 1] = {r_bot_x, r_bot_y};
  f.d_bottom[0] = {-l_bot_x, l_bot_y};
  // Inner points move by [-half, half) in both directions, independently.
  for (size_t i = 1; i + 1 < n; ++i) {
    const float tx = rng.below(thresh) - half, ty = rng.below(thresh) - half;
    const float bx = rng.below(thresh) - half, by = rng.below(thresh) - half;
    f.d_top[i] = {-tx, -ty};
    f.d_bottom[i] = {-bx, -by};
  }
  return warp_by_field(src, f);
}

cv::Mat tia_stretch(const cv::Mat& src, int segment, DataRng& rng) {
  const int w = src.cols;
  segment = std::max(1, segment);
  const int thresh = w / segment * 4 / 5;
  const float half = thresh * 0.5f;
  EdgeField f;
  f.xs = control_columns(w, segment);
  const size_t n = f.xs.size();
  f.d_top.assign(n, {0.0f, 0.0f});
  f.d_bottom.assign(n, {0.0f, 0.0f});
  // A whole column (top and bottom together) moves sideways; corners stay.
  for (size_t i = 1; i + 1 < n; ++i) {
    const float move = rng.below(thresh) - half;
    f.d_top[i] = f.d_bottom[i] = {-move, 0.0f};
  }
  return warp_by_field(src, f);
}

cv::Mat tia_perspective(const cv::Mat& src, DataRng& rng) {
  const int h = src.rows, w = src.cols;
  const int thresh = h / 2;
  const float W = static_cast<float>(w), H = static_cast<float>(h);
  const cv::Point2f from[4] = {{0, 0}, {W, 0}, {W, H}, {0, H}};
  const float a = rng.below(thresh), b = rng.below(thresh), c = rng.below(thresh), d = rng.below(thresh);
  const cv::Point2f to[4] = {{0, a}, {W, b}, {W, H - c}, {0, H - d}};
  const cv::Mat m = cv::getPerspectiveTransform(from, to);
  cv::Mat out;
  cv::warpPerspective(src, out, m, src.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return out;
}

}  // namespace ocrforge
