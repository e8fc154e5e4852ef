// PaddleOCR's DBPostProcess (boxes_from_bitmap / polygons_from_bitmap). The
// numeric types mirror the Python code where they change results: quad
// corners are float32 (cv2.boxPoints), polygon points are integers (Clipper),
// scores are double (cv2.mean).
#include "ocrforge/vision/db_postprocess.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/vision/unclip.h"

namespace ocrforge {

namespace {

constexpr float kMinSize = 3.f;  // DBPostProcess.min_size

// get_mini_boxes' corner order for an already computed min-area rectangle.
// The sort must be stable: Python's sorted() keeps boxPoints order on ties.
Quad order_mini_box(const cv::RotatedRect& rect, float* short_side) {
  cv::Point2f c[4];
  rect.points(c);  // what cv2.boxPoints returns
  std::array<cv::Point2f, 4> p = {c[0], c[1], c[2], c[3]};
  std::stable_sort(p.begin(), p.end(), [](const cv::Point2f& a, const cv::Point2f& b) { return a.x < b.x; });
  const int tl = p[1].y > p[0].y ? 0 : 1, bl = 1 - tl;
  const int tr = p[3].y > p[2].y ? 2 : 3, br = 5 - tr;
  if (short_side) *short_side = std::min(rect.size.width, rect.size.height);
  return {p[tl], p[tr], p[br], p[bl]};
}

std::vector<cv::Point2f> to_float(const std::vector<cv::Point>& pts) {
  return std::vector<cv::Point2f>(pts.begin(), pts.end());
}

// Clipper's output is integral; minAreaRect on int points is what Python gets.
std::vector<cv::Point> to_int(const std::vector<cv::Point2f>& pts) {
  std::vector<cv::Point> out;
  out.reserve(pts.size());
  for (const auto& p : pts) out.emplace_back(cvRound(p.x), cvRound(p.y));
  return out;
}

// np.round (half to even) of x / map_size * src_size, clipped to [0, src_size].
// T is float for quads (float32 arrays) and double for polygons (int64 arrays
// promoted to float64), as in NumPy.
template <typename T>
float scale_coord(float v, int map_size, int src_size) {
  const T s = static_cast<T>(v) / static_cast<T>(map_size) * static_cast<T>(src_size);
  const T r = std::nearbyint(s);
  return static_cast<float>(std::min(std::max(r, T(0)), static_cast<T>(src_size)));
}

template <typename T>
cv::Point2f scale_point(const cv::Point2f& p, cv::Size map, cv::Size src) {
  return {scale_coord<T>(p.x, map.width, src.width), scale_coord<T>(p.y, map.height, src.height)};
}

Quad scale_quad(const Quad& q, cv::Size map, cv::Size src) {
  Quad out;
  for (int i = 0; i < 4; ++i) out[i] = scale_point<float>(q[i], map, src);
  return out;
}

// box_score_fast: the bounding box is floor/ceil'd and clipped to the map, the
// shifted points are truncated to int (NumPy astype) before fillPoly.
// Kept in double: PaddleOCR compares cv2.mean's double with box_thresh.
double mean_in_polygon(const cv::Mat& prob, const std::vector<cv::Point2f>& polygon) {
  if (polygon.empty() || prob.empty()) return 0.0;
  const int h = prob.rows, w = prob.cols;
  float minx = polygon[0].x, maxx = minx, miny = polygon[0].y, maxy = miny;
  for (const auto& pt : polygon) {
    minx = std::min(minx, pt.x), maxx = std::max(maxx, pt.x);
    miny = std::min(miny, pt.y), maxy = std::max(maxy, pt.y);
  }
  const int xmin = std::clamp(static_cast<int>(std::floor(minx)), 0, w - 1);
  const int xmax = std::clamp(static_cast<int>(std::ceil(maxx)), 0, w - 1);
  const int ymin = std::clamp(static_cast<int>(std::floor(miny)), 0, h - 1);
  const int ymax = std::clamp(static_cast<int>(std::ceil(maxy)), 0, h - 1);
  cv::Mat mask = cv::Mat::zeros(ymax - ymin + 1, xmax - xmin + 1, CV_8U);
  std::vector<cv::Point> shifted;
  shifted.reserve(polygon.size());
  for (const auto& pt : polygon)
    shifted.emplace_back(static_cast<int>(pt.x - static_cast<float>(xmin)),
                         static_cast<int>(pt.y - static_cast<float>(ymin)));
  cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{shifted}, cv::Scalar(1));
  const cv::Rect roi(xmin, ymin, xmax - xmin + 1, ymax - ymin + 1);
  return cv::mean(prob(roi), mask)[0];
}

void quad_mode(const cv::Mat& prob, const std::vector<std::vector<cv::Point>>& contours, cv::Size src,
               const DbPostParams& p, std::vector<TextBox>& out) {
  const size_t n = std::min(contours.size(), static_cast<size_t>(std::max(p.max_candidates, 0)));
  for (size_t i = 0; i < n; ++i) {
    float sside = 0.f;
    const Quad q = order_mini_box(cv::minAreaRect(contours[i]), &sside);
    if (sside < kMinSize) continue;
    const std::vector<cv::Point2f> qpts(q.begin(), q.end());
    const double score = p.score_mode == DbScoreMode::Fast ? mean_in_polygon(prob, qpts)
                                                           : mean_in_polygon(prob, to_float(contours[i]));
    if (static_cast<double>(p.box_thresh) > score) continue;
    const std::vector<cv::Point2f> expanded = unclip(qpts, p.unclip_ratio);
    if (expanded.empty()) continue;
    const Quad big = order_mini_box(cv::minAreaRect(to_int(expanded)), &sside);
    if (sside < kMinSize + 2) continue;
    TextBox box;
    box.quad = scale_quad(big, prob.size(), src);
    box.polygon.assign(box.quad.begin(), box.quad.end());
    box.score = static_cast<float>(score);
    out.push_back(std::move(box));
  }
}

void poly_mode(const cv::Mat& prob, const std::vector<std::vector<cv::Point>>& contours, cv::Size src,
               const DbPostParams& p, std::vector<TextBox>& out) {
  const size_t n = std::min(contours.size(), static_cast<size_t>(std::max(p.max_candidates, 0)));
  for (size_t i = 0; i < n; ++i) {
    std::vector<cv::Point> approx;
    cv::approxPolyDP(contours[i], approx, 0.002 * cv::arcLength(contours[i], true), true);
    if (approx.size() < 4) continue;
    const std::vector<cv::Point2f> pts = to_float(approx);
    const double score = mean_in_polygon(prob, pts);
    if (static_cast<double>(p.box_thresh) > score) continue;
    const auto paths = unclip_paths(pts, p.unclip_ratio);
    if (paths.size() != 1 || paths[0].empty()) continue;  // PaddleOCR: len(box) > 1 -> skip
    float sside = 0.f;
    const Quad mq = order_mini_box(cv::minAreaRect(to_int(paths[0])), &sside);
    if (sside < kMinSize + 2) continue;
    TextBox box;
    for (const auto& pt : paths[0]) box.polygon.push_back(scale_point<double>(pt, prob.size(), src));
    box.quad = scale_quad(mq, prob.size(), src);
    box.score = static_cast<float>(score);
    out.push_back(std::move(box));
  }
}

}  // namespace

Quad mini_box(const std::vector<cv::Point2f>& points, float* short_side) {
  if (points.empty()) {
    if (short_side) *short_side = 0.f;
    return {};
  }
  return order_mini_box(cv::minAreaRect(points), short_side);
}

float polygon_score(const cv::Mat& prob, const std::vector<cv::Point2f>& polygon) {
  return static_cast<float>(mean_in_polygon(prob, polygon));
}

std::vector<TextBox> db_postprocess(const cv::Mat& prob, cv::Size src_size, const DbPostParams& p) {
  if (prob.empty()) return {};
  if (prob.type() != CV_32FC1) throw Error("db_postprocess: the probability map must be CV_32F, 1 channel");
  // pred > thresh compares float32 values with a float32 threshold.
  cv::Mat bitmap(prob.size(), CV_8U);
  for (int y = 0; y < prob.rows; ++y) {
    const float* src = prob.ptr<float>(y);
    uchar* dst = bitmap.ptr<uchar>(y);
    for (int x = 0; x < prob.cols; ++x) dst[x] = src[x] > p.thresh ? 255 : 0;
  }
  if (p.use_dilation) cv::dilate(bitmap, bitmap, cv::Mat::ones(2, 2, CV_8U));
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(bitmap, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);

  std::vector<TextBox> out;
  if (p.box_type == DetBoxType::Quad) quad_mode(prob, contours, src_size, p, out);
  else poly_mode(prob, contours, src_size, p, out);
  return out;
}

}  // namespace ocrforge
