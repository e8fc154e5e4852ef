// MakeBorderMap / MakeShrinkMap (det_maps.h).
#include "ocrforge/train/tasks/det/det_maps.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

double det_border_distance(double x, double y, cv::Point2d a, cv::Point2d b) {
  const double d1 = (x - a.x) * (x - a.x) + (y - a.y) * (y - a.y);
  const double d2 = (x - b.x) * (x - b.x) + (y - b.y) * (y - b.y);
  const double d = (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
  if (d1 == 0.0 || d2 == 0.0) return 0.0;  // on an end point
  // Minus the cosine of the angle at the pixel between the two end points.
  const double cosin = (d - d1 - d2) / (2.0 * std::sqrt(d1 * d2));
  if (cosin < 0.0) return std::sqrt(std::min(d1, d2));  // acute (or a zero-length edge)
  const double square_sin = std::max(0.0, 1.0 - cosin * cosin);  // rounding can dip below 0
  return std::sqrt(d1 * d2 * square_sin / d);
}

namespace {

void draw_border(const DetPolygon& poly, const DetBorderMapParams& p, cv::Mat* canvas, cv::Mat* mask) {
  const double area = det_polygon_area(poly), length = det_polygon_perimeter(poly);
  if (!(area > 0.0) || !(length > 0.0)) return;
  const double distance = area * (1.0 - p.shrink_ratio * p.shrink_ratio) / length;
  const auto padded_paths = det_offset_polygon(poly, distance);
  if (padded_paths.empty() || !(distance > 0.0)) return;
  const DetPolygon& padded = padded_paths[0];  // PaddleOCR takes the first path
  const std::vector<std::vector<cv::Point>> fill = {det_int_points(padded)};
  cv::fillPoly(*mask, fill, cv::Scalar(1.0));

  int xmin = fill[0][0].x, xmax = xmin, ymin = fill[0][0].y, ymax = ymin;
  for (const auto& q : fill[0]) {
    xmin = std::min(xmin, q.x), xmax = std::max(xmax, q.x);
    ymin = std::min(ymin, q.y), ymax = std::max(ymax, q.y);
  }
  // Only the part of the grown box inside the image is written.
  const int x0 = std::max(0, xmin), x1 = std::min(canvas->cols - 1, xmax);
  const int y0 = std::max(0, ymin), y1 = std::min(canvas->rows - 1, ymax);
  const size_t n = poly.size();
  for (int y = y0; y <= y1; ++y) {
    float* row = canvas->ptr<float>(y);
    for (int x = x0; x <= x1; ++x) {
      double nearest = 1.0;
      for (size_t i = 0; i < n; ++i) {
        const cv::Point2d a(poly[i].x, poly[i].y), b(poly[(i + 1) % n].x, poly[(i + 1) % n].y);
        nearest = std::min(nearest, std::clamp(det_border_distance(x, y, a, b) / distance, 0.0, 1.0));
      }
      row[x] = std::max(row[x], static_cast<float>(1.0 - nearest));
    }
  }
}

}  // namespace

void make_border_map(cv::Size size, const std::vector<DetPolygon>& polys, const std::vector<bool>& ignore,
                     const DetBorderMapParams& p, cv::Mat* threshold_map, cv::Mat* threshold_mask) {
  cv::Mat canvas = cv::Mat::zeros(size, CV_32F);
  *threshold_mask = cv::Mat::zeros(size, CV_32F);
  for (size_t i = 0; i < polys.size(); ++i)
    if (!(i < ignore.size() && ignore[i])) draw_border(polys[i], p, &canvas, threshold_mask);
  // float32 as NumPy: canvas * (max - min) + min.
  canvas.convertTo(*threshold_map, CV_32F, p.thresh_max - p.thresh_min, p.thresh_min);
}

void make_shrink_map(cv::Size size, std::vector<DetPolygon> polys, std::vector<bool> ignore,
                     const DetShrinkMapParams& p, cv::Mat* shrink_map, cv::Mat* shrink_mask, DetDataStats* stats) {
  ignore.resize(polys.size(), false);
  *shrink_map = cv::Mat::zeros(size, CV_32F);
  *shrink_mask = cv::Mat::ones(size, CV_32F);
  for (size_t i = 0; i < polys.size(); ++i) {
    det_clip_polygon(&polys[i], size);
    if (det_polygon_area(polys[i]) < 1.0) ignore[i] = true;
  }
  // np.arange(r, 1, r): r, 2r, ... below 1.
  std::vector<double> ratios;
  if (p.shrink_ratio > 0.0)
    for (int k = 0; p.shrink_ratio + k * p.shrink_ratio < 1.0; ++k) ratios.push_back(p.shrink_ratio + k * p.shrink_ratio);
  for (size_t i = 0; i < polys.size(); ++i) {
    const DetPolygon& poly = polys[i];
    if (poly.empty()) continue;
    float xmin = poly[0].x, xmax = xmin, ymin = poly[0].y, ymax = ymin;
    for (const auto& q : poly) {
      xmin = std::min(xmin, q.x), xmax = std::max(xmax, q.x);
      ymin = std::min(ymin, q.y), ymax = std::max(ymax, q.y);
    }
    const std::vector<std::vector<cv::Point>> own = {det_int_points(poly)};
    const bool small = std::min(ymax - ymin, xmax - xmin) < static_cast<float>(p.min_text_size);
    if (ignore[i] || small) {
      if (!ignore[i] && stats) ++stats->too_small;
      cv::fillPoly(*shrink_mask, own, cv::Scalar(0.0));
      continue;
    }
    const double area = det_polygon_area(poly), length = det_polygon_perimeter(poly);
    std::vector<DetPolygon> shrunk;
    for (double ratio : ratios) {
      shrunk = det_offset_polygon(poly, -(area * (1.0 - ratio * ratio) / length));
      if (shrunk.size() == 1) break;
    }
    if (shrunk.empty()) {
      if (stats) ++stats->shrink_failed;
      cv::fillPoly(*shrink_mask, own, cv::Scalar(0.0));
      continue;
    }
    for (const auto& s : shrunk) cv::fillPoly(*shrink_map, std::vector<std::vector<cv::Point>>{det_int_points(s)}, cv::Scalar(1.0));
  }
}

}  // namespace ocrforge
