#include "ocrforge/vision/det_metric.h"

#include <algorithm>
#include <cmath>

#include <polyclipping/clipper.hpp>

namespace ocrforge {

namespace {

// Clipper works on integers: 1/256 px keeps the rounding error of an area far
// below what IoU thresholds can notice.
constexpr double kScale = 256.0;

ClipperLib::Path to_path(const std::vector<cv::Point2f>& poly) {
  ClipperLib::Path path;
  path.reserve(poly.size());
  for (const auto& p : poly)
    path.emplace_back(static_cast<ClipperLib::cInt>(std::llround(p.x * kScale)),
                      static_cast<ClipperLib::cInt>(std::llround(p.y * kScale)));
  return path;
}

// Drops consecutive duplicates (and a closing point equal to the first).
std::vector<cv::Point2d> ring(const std::vector<cv::Point2f>& poly) {
  std::vector<cv::Point2d> r;
  for (const auto& p : poly)
    if (r.empty() || r.back() != cv::Point2d(p)) r.emplace_back(p);
  while (r.size() > 1 && r.front() == r.back()) r.pop_back();
  return r;
}

double cross(const cv::Point2d& o, const cv::Point2d& a, const cv::Point2d& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool on_segment(const cv::Point2d& p, const cv::Point2d& a, const cv::Point2d& b) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// Closed segments [a,b] and [c,d] share at least one point.
bool segments_touch(const cv::Point2d& a, const cv::Point2d& b, const cv::Point2d& c, const cv::Point2d& d) {
  const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 == 0 && on_segment(a, c, d)) || (d2 == 0 && on_segment(b, c, d)) ||
         (d3 == 0 && on_segment(c, a, b)) || (d4 == 0 && on_segment(d, a, b));
}

}  // namespace

double polygon_area(const std::vector<cv::Point2f>& poly) {
  double a2 = 0.0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const cv::Point2f& a = poly[i];
    const cv::Point2f& b = poly[(i + 1) % poly.size()];
    a2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  return std::fabs(a2) / 2.0;
}

double polygon_intersection_area(const std::vector<cv::Point2f>& a, const std::vector<cv::Point2f>& b) {
  if (a.size() < 3 || b.size() < 3) return 0.0;
  ClipperLib::Clipper clipper;
  clipper.AddPath(to_path(a), ClipperLib::ptSubject, true);
  clipper.AddPath(to_path(b), ClipperLib::ptClip, true);
  ClipperLib::Paths out;
  // Non-zero filling makes the result independent of each ring's orientation.
  clipper.Execute(ClipperLib::ctIntersection, out, ClipperLib::pftNonZero, ClipperLib::pftNonZero);
  double area = 0.0;
  for (const auto& p : out) area += ClipperLib::Area(p);  // holes come back negative
  return std::fabs(area) / (kScale * kScale);
}

bool polygon_is_valid(const std::vector<cv::Point2f>& poly) {
  const std::vector<cv::Point2d> r = ring(poly);
  const size_t n = r.size();
  if (n < 3 || n > kMaxMetricPolygonPoints || !(polygon_area(poly) > 0.0)) return false;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      if (adjacent) {
        // Adjacent edges may share only their common vertex: folding back
        // along the same line is a degenerate spike.
        const cv::Point2d& shared = (j == i + 1) ? r[j] : r[i];
        const cv::Point2d& p = (j == i + 1) ? r[i] : r[(i + 1) % n];
        const cv::Point2d& q = (j == i + 1) ? r[(j + 1) % n] : r[j];
        if (cross(shared, p, q) == 0 && (p - shared).dot(q - shared) > 0) return false;
        continue;
      }
      if (segments_touch(r[i], r[(i + 1) % n], r[j], r[(j + 1) % n])) return false;
    }
  }
  return true;
}

DetImageCounts evaluate_det_image(const std::vector<DetGtPolygon>& gt,
                                  const std::vector<std::vector<cv::Point2f>>& det, const DetMetricParams& p) {
  std::vector<const DetGtPolygon*> gts;
  for (const auto& g : gt)
    if (polygon_is_valid(g.points)) gts.push_back(&g);
  std::vector<const std::vector<cv::Point2f>*> dets;
  std::vector<bool> det_dropped;
  for (const auto& d : det) {
    if (!polygon_is_valid(d)) continue;
    bool dropped = false;
    const double area = polygon_area(d);
    for (const auto* g : gts) {
      if (!g->ignore) continue;
      const double inside = area > 0 ? polygon_intersection_area(g->points, d) / area : 0.0;
      if (inside > p.area_precision) {
        dropped = true;
        break;
      }
    }
    dets.push_back(&d);
    det_dropped.push_back(dropped);
  }

  DetImageCounts c;
  std::vector<bool> gt_taken(gts.size(), false), det_taken(dets.size(), false);
  for (size_t gi = 0; gi < gts.size(); ++gi) {
    if (gts[gi]->ignore) continue;
    const double gt_area = polygon_area(gts[gi]->points);
    for (size_t di = 0; di < dets.size() && !gt_taken[gi]; ++di) {
      if (det_taken[di] || det_dropped[di]) continue;
      const double inter = polygon_intersection_area(gts[gi]->points, *dets[di]);
      const double uni = gt_area + polygon_area(*dets[di]) - inter;
      const double iou = uni > 0 ? inter / uni : 0.0;
      if (iou > p.iou) {
        gt_taken[gi] = det_taken[di] = true;
        ++c.matched;
      }
    }
  }
  for (const auto* g : gts) c.gt_care += g->ignore ? 0 : 1;
  for (bool d : det_dropped) c.det_care += d ? 0 : 1;
  return c;
}

DetImageCounts DetMetric::add(const std::vector<DetGtPolygon>& gt, const std::vector<std::vector<cv::Point2f>>& det) {
  DetImageCounts c = evaluate_det_image(gt, det, params_);
  totals_.gt_care += c.gt_care;
  totals_.det_care += c.det_care;
  totals_.matched += c.matched;
  return c;
}

double DetMetric::precision() const {
  return totals_.det_care == 0 ? 0.0 : static_cast<double>(totals_.matched) / totals_.det_care;
}
double DetMetric::recall() const {
  return totals_.gt_care == 0 ? 0.0 : static_cast<double>(totals_.matched) / totals_.gt_care;
}
double DetMetric::hmean() const {
  const double p = precision(), r = recall();
  return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
}

}  // namespace ocrforge
