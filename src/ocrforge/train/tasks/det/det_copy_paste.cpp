#include "ocrforge/train/tasks/det/det_copy_paste.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace ocrforge {

namespace {

double distance(const cv::Point2f& a, const cv::Point2f& b) { return std::hypot(a.x - b.x, a.y - b.y); }

// PaddleOCR's get_rotate_crop_image on a four-point region; empty when degenerate.
cv::Mat crop_region(const cv::Mat& img, const DetPolygon& q) {
  const int w = static_cast<int>(std::max(distance(q[0], q[1]), distance(q[2], q[3])));
  const int h = static_cast<int>(std::max(distance(q[0], q[3]), distance(q[1], q[2])));
  if (w < 1 || h < 1) return {};
  const cv::Point2f src[4] = {q[0], q[1], q[2], q[3]};
  const cv::Point2f dst[4] = {{0.f, 0.f}, {static_cast<float>(w), 0.f}, {static_cast<float>(w), static_cast<float>(h)},
                              {0.f, static_cast<float>(h)}};
  cv::Mat out;
  cv::warpPerspective(img, out, cv::getPerspectiveTransform(src, dst), cv::Size(w, h), cv::INTER_CUBIC,
                      cv::BORDER_REPLICATE);
  if (static_cast<double>(out.rows) / out.cols >= 1.5) cv::rotate(out, out, cv::ROTATE_90_COUNTERCLOCKWISE);
  return out;
}

// True when the polygon's bounding box and [x0, x1] x [y0, y1] do not meet
// (PaddleOCR's is_poly_outside_rect).
bool outside(const DetPolygon& poly, double x0, double y0, double x1, double y1) {
  float minx = poly[0].x, maxx = poly[0].x, miny = poly[0].y, maxy = poly[0].y;
  for (const auto& p : poly) {
    minx = std::min(minx, p.x);
    maxx = std::max(maxx, p.x);
    miny = std::min(miny, p.y);
    maxy = std::max(maxy, p.y);
  }
  return maxx < x0 || minx > x1 || maxy < y0 || miny > y1;
}

// Pastes `crop` turned by `angle` degrees (counter-clockwise, canvas grown);
// false when it does not fit.
bool paste(const DetCopyPasteParams& p, DataRng& rng, const cv::Mat& crop, cv::Mat* img,
           std::vector<DetPolygon>* polys, std::vector<bool>* ignore) {
  const int bw = crop.cols, bh = crop.rows;
  if (bw > img->cols || bh > img->rows) return false;
  const double angle = rng.below(360);
  const double r = angle * CV_PI / 180.0;
  const double nw = std::abs(std::sin(r) * bh) + std::abs(std::cos(r) * bw);
  const double nh = std::abs(std::cos(r) * bh) + std::abs(std::sin(r) * bw);
  // PaddleOCR's rotate_bbox matrix: about the grown canvas' centre, moved so the crop's centre lands there.
  cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(static_cast<float>(nw / 2), static_cast<float>(nh / 2)), angle, 1.0);
  const double dx = (nw - bw) / 2, dy = (nh - bh) / 2;
  m.at<double>(0, 2) += m.at<double>(0, 0) * dx + m.at<double>(0, 1) * dy;
  m.at<double>(1, 2) += m.at<double>(1, 0) * dx + m.at<double>(1, 1) * dy;
  DetPolygon box;
  for (const cv::Point2d c : {cv::Point2d(0, 0), cv::Point2d(bw, 0), cv::Point2d(bw, bh), cv::Point2d(0, bh)})
    box.emplace_back(static_cast<float>(m.at<double>(0, 0) * c.x + m.at<double>(0, 1) * c.y + m.at<double>(0, 2)),
                     static_cast<float>(m.at<double>(1, 0) * c.x + m.at<double>(1, 1) * c.y + m.at<double>(1, 2)));
  float xmin = box[0].x, xmax = box[0].x, ymin = box[0].y, ymax = box[0].y;
  for (const auto& c : box) {
    xmin = std::min(xmin, c.x);
    xmax = std::max(xmax, c.x);
    ymin = std::min(ymin, c.y);
    ymax = std::max(ymax, c.y);
  }
  // The paste position: the crop's unrotated size must fit (PaddleOCR's end point).
  const int endx = img->cols - bw, endy = img->rows - bh;
  int px = -1, py = -1;
  for (int attempt = 0; attempt < (p.limit_paste ? 50 : 1); ++attempt) {
    const int x = rng.randint(0, endx), y = rng.randint(0, endy);
    bool free = true;
    if (p.limit_paste)
      for (const auto& poly : *polys)
        if (!poly.empty() && !outside(poly, xmin + x, ymin + y, xmax + x, ymax + y)) {
          free = false;
          break;
        }
    if (free) {
      px = x;
      py = y;
      break;
    }
  }
  if (px < 0) return false;
  const cv::Size canvas(std::max(1, static_cast<int>(std::ceil(nw))), std::max(1, static_cast<int>(std::ceil(nh))));
  cv::Mat turned, mask;
  cv::warpAffine(crop, turned, m, canvas, cv::INTER_NEAREST, cv::BORDER_CONSTANT, cv::Scalar::all(0));
  cv::warpAffine(cv::Mat(crop.size(), CV_8U, cv::Scalar(255)), mask, m, canvas, cv::INTER_NEAREST,
                 cv::BORDER_CONSTANT, cv::Scalar(0));
  // The part of the canvas inside the image (PIL's paste clips the same way).
  const cv::Rect target = cv::Rect(px, py, canvas.width, canvas.height) & cv::Rect(0, 0, img->cols, img->rows);
  if (target.area() > 0) {
    const cv::Rect source(target.x - px, target.y - py, target.width, target.height);
    turned(source).copyTo((*img)(target), mask(source));
  }
  for (auto& c : box) c += cv::Point2f(static_cast<float>(px), static_cast<float>(py));
  polys->push_back(std::move(box));
  ignore->push_back(false);
  return true;
}

}  // namespace

void copy_paste(const DetCopyPasteParams& p, DataRng& rng, const cv::Mat& ext_img,
                const std::vector<DetPolygon>& ext_polys, const std::vector<bool>& ext_ignore, cv::Mat* img,
                std::vector<DetPolygon>* polys, std::vector<bool>* ignore) {
  std::vector<size_t> cared;
  for (size_t i = 0; i < ext_polys.size(); ++i)
    if (!ext_ignore[i]) cared.push_back(i);
  const int select = std::max(1, std::min(static_cast<int>(p.objects_paste_ratio * ext_polys.size()), 30));
  // Fisher-Yates from the sample's stream (random.shuffle).
  for (size_t i = cared.size(); i > 1; --i) std::swap(cared[i - 1], cared[rng.index(i)]);
  if (cared.size() > static_cast<size_t>(select)) cared.resize(static_cast<size_t>(select));
  for (size_t i : cared) {
    if (ext_polys[i].size() != 4) continue;
    const cv::Mat crop = crop_region(ext_img, ext_polys[i]);
    if (!crop.empty()) paste(p, rng, crop, img, polys, ignore);
  }
  const float w = static_cast<float>(img->cols), h = static_cast<float>(img->rows);
  for (auto& poly : *polys)
    for (auto& c : poly) {
      c.x = std::clamp(c.x, 0.f, w);
      c.y = std::clamp(c.y, 0.f, h);
    }
}

}  // namespace ocrforge
