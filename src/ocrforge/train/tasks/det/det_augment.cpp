// IaaAugment and EastRandomCropData (det_augment.h).
#include "ocrforge/train/tasks/det/det_augment.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

std::vector<DetIaaStep> default_iaa_steps() {
  return {{DetIaaStep::Kind::kFliplr, 0.5, 0.0, 0.0},
          {DetIaaStep::Kind::kAffine, 0.0, -10.0, 10.0},
          {DetIaaStep::Kind::kResize, 0.0, 0.5, 3.0}};
}

namespace {

double uniform_in(DataRng& rng, double lo, double hi) { return lo + (hi - lo) * rng.uniform(); }

void flip(cv::Mat* image, std::vector<DetPolygon>* polys) {
  cv::Mat out;
  cv::flip(*image, out, 1);
  const float w = static_cast<float>(image->cols);
  for (auto& poly : *polys)
    for (auto& q : poly) q.x = w - q.x;
  *image = out;
}

void rotate(double degrees, cv::Mat* image, std::vector<DetPolygon>* polys) {
  // imgaug's matrix: p' = R(theta) (p - c) + c, R = [[cos, -sin], [sin, cos]] in (x, y).
  const double t = degrees * CV_PI / 180.0, c = std::cos(t), s = std::sin(t);
  const double cx = image->cols / 2.0 - 0.5, cy = image->rows / 2.0 - 0.5;
  const cv::Matx23d m(c, -s, cx - c * cx + s * cy, s, c, cy - s * cx - c * cy);
  cv::Mat out;
  cv::warpAffine(*image, out, m, image->size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
  for (auto& poly : *polys)
    for (auto& q : poly) {
      const double x = q.x, y = q.y;
      q = cv::Point2f(static_cast<float>(m(0, 0) * x + m(0, 1) * y + m(0, 2)),
                      static_cast<float>(m(1, 0) * x + m(1, 1) * y + m(1, 2)));
    }
  *image = out;
}

void resize(double factor, cv::Mat* image, std::vector<DetPolygon>* polys) {
  const int w = std::max(1, static_cast<int>(std::lround(image->cols * factor)));
  const int h = std::max(1, static_cast<int>(std::lround(image->rows * factor)));
  const float sx = static_cast<float>(w) / image->cols, sy = static_cast<float>(h) / image->rows;
  cv::Mat out;
  cv::resize(*image, out, cv::Size(w, h), 0, 0, cv::INTER_CUBIC);
  for (auto& poly : *polys)
    for (auto& q : poly) q = cv::Point2f(q.x * sx, q.y * sy);
  *image = out;
}

// ---- EastRandomCropData --------------------------------------------------

// Runs of consecutive values in `axis`. As PaddleOCR's split_regions, the
// last run is not returned (so region-wise selection never picks it).
std::vector<std::vector<int>> split_regions(const std::vector<int>& axis) {
  std::vector<std::vector<int>> regions;
  size_t start = 0;
  for (size_t i = 1; i < axis.size(); ++i)
    if (axis[i] != axis[i - 1] + 1) {
      regions.emplace_back(axis.begin() + start, axis.begin() + i);
      start = i;
    }
  return regions;
}

std::pair<int, int> random_select(const std::vector<int>& axis, int max_size, DataRng& rng) {
  const int a = axis[rng.index(axis.size())], b = axis[rng.index(axis.size())];
  return {std::clamp(std::min(a, b), 0, max_size - 1), std::clamp(std::max(a, b), 0, max_size - 1)};
}

std::pair<int, int> region_wise_select(const std::vector<std::vector<int>>& regions, DataRng& rng) {
  const auto& r1 = regions[rng.index(regions.size())];
  const auto& r2 = regions[rng.index(regions.size())];
  const int a = r1[rng.index(r1.size())], b = r2[rng.index(r2.size())];
  return {std::min(a, b), std::max(a, b)};
}

bool outside_rect(const DetPolygon& poly, double x, double y, double w, double h) {
  float xmin = poly[0].x, xmax = xmin, ymin = poly[0].y, ymax = ymin;
  for (const auto& q : poly) {
    xmin = std::min(xmin, q.x), xmax = std::max(xmax, q.x);
    ymin = std::min(ymin, q.y), ymax = std::max(ymax, q.y);
  }
  return xmax < x || xmin > x + w || ymax < y || ymin > y + h;
}

cv::Rect crop_area(cv::Size size, const std::vector<const DetPolygon*>& care, const DetCropParams& p, DataRng& rng) {
  const int w = size.width, h = size.height;
  std::vector<char> w_used(w, 0), h_used(h, 0);
  for (const DetPolygon* poly : care) {
    int minx = INT32_MAX, maxx = INT32_MIN, miny = INT32_MAX, maxy = INT32_MIN;
    for (const auto& q : *poly) {
      const int x = static_cast<int>(std::nearbyint(q.x)), y = static_cast<int>(std::nearbyint(q.y));
      minx = std::min(minx, x), maxx = std::max(maxx, x), miny = std::min(miny, y), maxy = std::max(maxy, y);
    }
    // [min, max) marked as text; clamped (NumPy would wrap negative starts).
    for (int x = std::max(0, minx); x < std::min(w, maxx); ++x) w_used[x] = 1;
    for (int y = std::max(0, miny); y < std::min(h, maxy); ++y) h_used[y] = 1;
  }
  std::vector<int> w_axis, h_axis;
  for (int x = 0; x < w; ++x) if (!w_used[x]) w_axis.push_back(x);
  for (int y = 0; y < h; ++y) if (!h_used[y]) h_axis.push_back(y);
  const cv::Rect whole(0, 0, w, h);
  if (w_axis.empty() || h_axis.empty()) return whole;
  const auto w_regions = split_regions(w_axis), h_regions = split_regions(h_axis);
  for (int t = 0; t < p.max_tries; ++t) {
    const auto [xmin, xmax] = w_regions.size() > 1 ? region_wise_select(w_regions, rng) : random_select(w_axis, w, rng);
    const auto [ymin, ymax] = h_regions.size() > 1 ? region_wise_select(h_regions, rng) : random_select(h_axis, h, rng);
    if (xmax - xmin < p.min_crop_side_ratio * w || ymax - ymin < p.min_crop_side_ratio * h) continue;
    if (xmax - xmin < 1 || ymax - ymin < 1) continue;  // a tiny image: never an empty crop
    for (const DetPolygon* poly : care)
      if (!outside_rect(*poly, xmin, ymin, xmax - xmin, ymax - ymin)) return cv::Rect(xmin, ymin, xmax - xmin, ymax - ymin);
  }
  return whole;
}

}  // namespace

void iaa_augment(const std::vector<DetIaaStep>& steps, DataRng& rng, cv::Mat* image, std::vector<DetPolygon>* polys) {
  for (const auto& step : steps) {
    switch (step.kind) {
      case DetIaaStep::Kind::kFliplr:
        if (rng.chance(step.p)) flip(image, polys);
        break;
      case DetIaaStep::Kind::kAffine: rotate(uniform_in(rng, step.lo, step.hi), image, polys); break;
      case DetIaaStep::Kind::kResize: resize(uniform_in(rng, step.lo, step.hi), image, polys); break;
    }
  }
}

void east_random_crop(const DetCropParams& p, DataRng& rng, cv::Mat* image, std::vector<DetPolygon>* polys,
                      std::vector<bool>* ignore) {
  ignore->resize(polys->size(), false);
  std::vector<const DetPolygon*> care;
  for (size_t i = 0; i < polys->size(); ++i)
    if (!(*ignore)[i] && !(*polys)[i].empty()) care.push_back(&(*polys)[i]);
  const cv::Rect crop = crop_area(image->size(), care, p, rng);
  const double scale_w = static_cast<double>(p.width) / crop.width, scale_h = static_cast<double>(p.height) / crop.height;
  const double scale = std::min(scale_w, scale_h);
  const int h = std::max(1, static_cast<int>(crop.height * scale)), w = std::max(1, static_cast<int>(crop.width * scale));
  cv::Mat out;
  double sx = scale, sy = scale;
  if (p.keep_ratio) {
    out = cv::Mat::zeros(p.height, p.width, image->type());
    cv::Mat resized;
    cv::resize((*image)(crop), resized, cv::Size(w, h));
    resized.copyTo(out(cv::Rect(0, 0, w, h)));
  } else {
    // PaddleOCR scales the polygons by the keep-ratio scale here too; the
    // image is stretched per axis, so we scale each axis by its own factor.
    cv::resize((*image)(crop), out, cv::Size(p.width, p.height));
    sx = scale_w, sy = scale_h;
  }
  const double kept_w = p.keep_ratio ? w : p.width, kept_h = p.keep_ratio ? h : p.height;
  std::vector<DetPolygon> kept_polys;
  std::vector<bool> kept_ignore;
  for (size_t i = 0; i < polys->size(); ++i) {
    DetPolygon poly = (*polys)[i];
    if (poly.empty()) continue;
    for (auto& q : poly)
      q = cv::Point2f(static_cast<float>((q.x - crop.x) * sx), static_cast<float>((q.y - crop.y) * sy));
    if (outside_rect(poly, 0, 0, kept_w, kept_h)) continue;
    kept_polys.push_back(std::move(poly));
    kept_ignore.push_back((*ignore)[i]);
  }
  *image = out;
  *polys = std::move(kept_polys);
  *ignore = std::move(kept_ignore);
}

}  // namespace ocrforge
