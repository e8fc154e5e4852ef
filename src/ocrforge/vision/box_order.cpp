// PaddleOCR's order_points_clockwise, filter_tag_det_res(_only_clip) and
// sorted_boxes. Values stay float32 like the NumPy arrays they mirror.
#include "ocrforge/vision/box_order.h"

#include <algorithm>
#include <cmath>

namespace ocrforge {

namespace {

// clip_det_res: clamp to [0, size - 1], then int() (truncation).
cv::Point2f clip_point(const cv::Point2f& p, cv::Size image) {
  const float x = std::min(std::max(p.x, 0.f), static_cast<float>(image.width - 1));
  const float y = std::min(std::max(p.y, 0.f), static_cast<float>(image.height - 1));
  return {static_cast<float>(static_cast<int>(x)), static_cast<float>(static_cast<int>(y))};
}

// np.linalg.norm of a float32 difference, truncated by int().
int edge_length(const cv::Point2f& a, const cv::Point2f& b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return static_cast<int>(std::sqrt(dx * dx + dy * dy));
}

// Quad mode stores the quad corners as the polygon; poly mode a real outline.
bool polygon_is_quad(const TextBox& b) {
  if (b.polygon.empty()) return true;
  if (b.polygon.size() != 4) return false;
  return std::equal(b.polygon.begin(), b.polygon.end(), b.quad.begin());
}

}  // namespace

Quad order_points_clockwise(const Quad& q) {
  // argmin/argmax return the first index on ties, as NumPy does.
  int imin = 0, imax = 0;
  for (int i = 1; i < 4; ++i) {
    if (q[i].x + q[i].y < q[imin].x + q[imin].y) imin = i;
    if (q[i].x + q[i].y > q[imax].x + q[imax].y) imax = i;
  }
  // np.delete of {imin, imax}: 2 rows remain, or 3 when both are the same.
  std::vector<cv::Point2f> rest;
  for (int i = 0; i < 4; ++i)
    if (i != imin && i != imax) rest.push_back(q[i]);
  size_t dmin = 0, dmax = 0;
  for (size_t i = 1; i < rest.size(); ++i) {
    if (rest[i].y - rest[i].x < rest[dmin].y - rest[dmin].x) dmin = i;
    if (rest[i].y - rest[i].x > rest[dmax].y - rest[dmax].x) dmax = i;
  }
  return {q[imin], rest[dmin], q[imax], rest[dmax]};
}

std::vector<TextBox> filter_det_boxes(std::vector<TextBox> boxes, cv::Size image_size) {
  std::vector<TextBox> kept;
  kept.reserve(boxes.size());
  for (auto& b : boxes) {
    const bool is_quad = polygon_is_quad(b);
    Quad q = order_points_clockwise(b.quad);
    for (auto& p : q) p = clip_point(p, image_size);
    b.quad = q;
    if (is_quad) {
      if (edge_length(q[0], q[1]) <= 3 || edge_length(q[0], q[3]) <= 3) continue;
      b.polygon.assign(q.begin(), q.end());
    } else {
      // Poly mode (filter_tag_det_res_only_clip): clip only, never drop.
      for (auto& p : b.polygon) p = clip_point(p, image_size);
    }
    kept.push_back(std::move(b));
  }
  return kept;
}

void sort_boxes(std::vector<TextBox>& boxes) {
  std::stable_sort(boxes.begin(), boxes.end(), [](const TextBox& a, const TextBox& b) {
    if (a.quad[0].y != b.quad[0].y) return a.quad[0].y < b.quad[0].y;
    return a.quad[0].x < b.quad[0].x;
  });
  // Boxes on one line (|dy| < 10) must read left to right: bubble each new
  // box leftwards while it is on the same line and further left.
  for (size_t i = 0; i + 1 < boxes.size(); ++i) {
    for (size_t j = i + 1; j-- > 0;) {
      const cv::Point2f& a = boxes[j].quad[0];
      const cv::Point2f& b = boxes[j + 1].quad[0];
      if (std::fabs(b.y - a.y) < 10 && b.x < a.x) std::swap(boxes[j], boxes[j + 1]);
      else break;
    }
  }
}

}  // namespace ocrforge
