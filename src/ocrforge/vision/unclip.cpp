// DB box expansion with Clipper, set up as PaddleOCR's unclip: Shapely's area
// and length of the float polygon give the distance, pyclipper's ClipperOffset
// (default miter limit 2, arc tolerance 0.25) does the round-joined offset.
#include "ocrforge/vision/unclip.h"

#include <cmath>

#include <polyclipping/clipper.hpp>

namespace ocrforge {

namespace {

// pyclipper builds IntPoint from Python numbers with int(), i.e. truncation
// toward zero (PaddleOCR's own C++ deploy code casts with int() as well).
ClipperLib::cInt to_clipper(float v) { return static_cast<ClipperLib::cInt>(v); }

}  // namespace

std::vector<std::vector<cv::Point2f>> unclip_paths(const std::vector<cv::Point2f>& polygon,
                                                   float unclip_ratio) {
  if (polygon.size() < 3) return {};
  // Shapely: area by the shoelace formula, length = closed perimeter (double).
  double area2 = 0.0, length = 0.0;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const cv::Point2f& a = polygon[i];
    const cv::Point2f& b = polygon[(i + 1) % polygon.size()];
    area2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    length += std::hypot(static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y);
  }
  const double area = std::fabs(area2) / 2.0;
  // A zero-area polygon would only come back unchanged (Clipper's delta 0).
  if (!(area > 0.0) || !(length > 0.0)) return {};
  const double distance = area * unclip_ratio / length;

  ClipperLib::Path path;
  path.reserve(polygon.size());
  for (const auto& p : polygon) path.emplace_back(to_clipper(p.x), to_clipper(p.y));
  ClipperLib::ClipperOffset offset;
  offset.AddPath(path, ClipperLib::jtRound, ClipperLib::etClosedPolygon);
  ClipperLib::Paths solution;
  offset.Execute(solution, distance);

  std::vector<std::vector<cv::Point2f>> out;
  for (const auto& sol : solution) {
    std::vector<cv::Point2f> pts;
    pts.reserve(sol.size());
    for (const auto& ip : sol) pts.emplace_back(static_cast<float>(ip.X), static_cast<float>(ip.Y));
    out.push_back(std::move(pts));
  }
  return out;
}

std::vector<cv::Point2f> unclip(const std::vector<cv::Point2f>& polygon, float unclip_ratio) {
  auto paths = unclip_paths(polygon, unclip_ratio);
  std::vector<cv::Point2f> best;
  double best_area = -1.0;
  for (auto& p : paths) {
    double a2 = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
      const auto& a = p[i];
      const auto& b = p[(i + 1) % p.size()];
      a2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    }
    if (std::fabs(a2) > best_area) {
      best_area = std::fabs(a2);
      best = std::move(p);
    }
  }
  return best;
}

}  // namespace ocrforge
