#include "ocrforge/synth/det_layout.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/synth/augment.h"

namespace ocrforge {

namespace {

constexpr double kMargin = 4;  // pixels between any line and the image border

// Rotation by `angle_deg` about the ink centre, then the centre moved to `centre`.
cv::Matx33d line_transform(const cv::Rect2d& ink, double angle_deg, cv::Point2d centre) {
  const double a = angle_deg * CV_PI / 180.0, c = std::cos(a), s = std::sin(a);
  const double cx = ink.x + ink.width / 2, cy = ink.y + ink.height / 2;
  return cv::Matx33d(1, 0, centre.x, 0, 1, centre.y, 0, 0, 1) * cv::Matx33d(c, -s, 0, s, c, 0, 0, 0, 1) *
         cv::Matx33d(1, 0, -cx, 0, 1, -cy, 0, 0, 1);
}

}  // namespace

std::vector<cv::Point2f> rect_corners(const cv::Rect2d& r) {
  const float x0 = static_cast<float>(r.x), y0 = static_cast<float>(r.y);
  const float x1 = static_cast<float>(r.x + r.width), y1 = static_cast<float>(r.y + r.height);
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

DetLayout::DetLayout(cv::Size image_size, bool scene, SampleRng& rng)
    : size_(image_size), scene_(scene), occupied_(image_size, CV_8UC1, cv::Scalar(0)) {
  cursor_y_ = rng.uniform(0.03, 0.12) * size_.height;
  left_x_ = rng.uniform(0.03, 0.12) * size_.width;
}

bool DetLayout::try_at(const cv::Rect2d& ink, double line_h, const cv::Matx33d& m) {
  for (const auto& p : transform_points(m, rect_corners(ink)))
    if (p.x < kMargin || p.y < kMargin || p.x > size_.width - 1 - kMargin || p.y > size_.height - 1 - kMargin)
      return false;
  // Each line reserves its ink plus 0.3 line heights around it, so two
  // lines are at least ~0.6 line heights apart.
  const double gap = 0.3 * line_h;
  const cv::Rect2d spaced(ink.x - gap, ink.y - gap, ink.width + 2 * gap, ink.height + 2 * gap);
  std::vector<cv::Point> poly;
  for (const auto& p : transform_points(m, rect_corners(spaced)))
    poly.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  const cv::Rect bounds = cv::boundingRect(poly) & cv::Rect(0, 0, size_.width, size_.height);
  if (bounds.empty()) return false;
  cv::Mat mine(bounds.size(), CV_8UC1, cv::Scalar(0));
  for (auto& p : poly) p -= bounds.tl();
  cv::fillConvexPoly(mine, poly, cv::Scalar(255));
  cv::Mat clash;
  cv::bitwise_and(mine, occupied_(bounds), clash);
  if (cv::countNonZero(clash) > 0) return false;
  cv::bitwise_or(occupied_(bounds), mine, occupied_(bounds));
  return true;
}

bool DetLayout::place(const cv::Rect2d& ink, double line_h, double angle_deg, SampleRng& rng,
                      cv::Matx33d* to_image) {
  if (scene_) {
    for (int attempt = 0; attempt < 25; ++attempt) {
      const cv::Point2d centre{rng.uniform(0, size_.width), rng.uniform(0, size_.height)};  // braces: x drawn first
      const cv::Matx33d m = line_transform(ink, angle_deg, centre);
      if (try_at(ink, line_h, m)) {
        *to_image = m;
        return true;
      }
    }
    return false;
  }
  // Document: the next free row; an occasional indent; a new column is not
  // started (documents here are single-column).
  const double indent = rng.chance(0.3) ? rng.uniform(0.0, 0.3) * size_.width : 0.0;
  const double gap_after = line_h * rng.uniform(0.6, 1.6);
  // A line too long for its indent starts further left instead.
  double x0 = left_x_ + indent;
  const double right = size_.width - 1 - 2 * kMargin;
  if (x0 + ink.width > right) x0 = std::max(2 * kMargin, right - ink.width);
  for (int attempt = 0; attempt < 6; ++attempt) {
    const cv::Point2d centre(x0 + ink.width / 2, cursor_y_ + line_h * 0.5 + ink.height / 2);
    const cv::Matx33d m = line_transform(ink, angle_deg, centre);
    cursor_y_ += line_h * 0.5;  // move down a little and try again if the row is taken
    if (try_at(ink, line_h, m)) {
      *to_image = m;
      cursor_y_ = centre.y + ink.height / 2 + gap_after;
      return true;
    }
  }
  return false;
}

}  // namespace ocrforge
