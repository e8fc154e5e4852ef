// Detection polygon helpers (det_polygon.h).
#include "ocrforge/train/tasks/det/det_polygon.h"

#include <algorithm>
#include <cmath>

#include <polyclipping/clipper.hpp>

namespace ocrforge {

double det_polygon_area(const DetPolygon& poly) {
  if (poly.size() < 3) return 0.0;
  double a2 = 0.0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    a2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  return std::fabs(a2) / 2.0;
}

double det_polygon_perimeter(const DetPolygon& poly) {
  if (poly.size() < 2) return 0.0;
  double len = 0.0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    len += std::hypot(static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y);
  }
  return len;
}

std::vector<DetPolygon> det_offset_polygon(const DetPolygon& poly, double distance) {
  if (poly.size() < 3) return {};
  ClipperLib::Path path;
  path.reserve(poly.size());
  // pyclipper converts Python floats with int(): truncation toward zero.
  for (const auto& p : poly)
    path.emplace_back(static_cast<ClipperLib::cInt>(p.x), static_cast<ClipperLib::cInt>(p.y));
  ClipperLib::ClipperOffset offset;  // pyclipper's defaults: miter limit 2, arc tolerance 0.25
  offset.AddPath(path, ClipperLib::jtRound, ClipperLib::etClosedPolygon);
  ClipperLib::Paths solution;
  offset.Execute(solution, distance);
  std::vector<DetPolygon> out;
  for (const auto& sol : solution) {
    DetPolygon pts;
    pts.reserve(sol.size());
    for (const auto& ip : sol) pts.emplace_back(static_cast<float>(ip.X), static_cast<float>(ip.Y));
    out.push_back(std::move(pts));
  }
  return out;
}

bool det_clip_polygon(DetPolygon* poly, cv::Size image) {
  bool moved = false;
  const float xmax = static_cast<float>(image.width - 1), ymax = static_cast<float>(image.height - 1);
  for (auto& p : *poly) {
    const cv::Point2f q(std::clamp(p.x, 0.0f, xmax), std::clamp(p.y, 0.0f, ymax));
    moved = moved || q != p;
    p = q;
  }
  return moved;
}

void det_drop_repeated_points(DetPolygon* poly) {
  DetPolygon out;
  for (const auto& p : *poly)
    if (out.empty() || out.back() != p) out.push_back(p);
  while (out.size() > 1 && out.back() == out.front()) out.pop_back();
  *poly = std::move(out);
}

std::vector<cv::Point> det_int_points(const DetPolygon& poly) {
  std::vector<cv::Point> out;
  out.reserve(poly.size());
  for (const auto& p : poly) out.emplace_back(static_cast<int>(p.x), static_cast<int>(p.y));
  return out;
}

}  // namespace ocrforge
