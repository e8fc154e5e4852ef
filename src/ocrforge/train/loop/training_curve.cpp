#include "ocrforge/train/loop/training_curve.h"

#include <algorithm>
#include <cstdio>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/atomic_file.h"

namespace ocrforge {

void TrainingCurve::add_train_point(long step, double loss, double lr) {
  steps_.push_back(step);
  losses_.push_back(loss);
  lrs_.push_back(lr);
}

void TrainingCurve::add_eval_point(long step, double metric) {
  eval_steps_.push_back(step);
  metrics_.push_back(metric);
}

// One panel: a polyline of (x, y) scaled into `area`, with min/max labels.
static void draw_panel(cv::Mat& img, cv::Rect area, const std::vector<long>& xs, const std::vector<double>& ys,
                       long x_max, const std::string& title, cv::Scalar colour) {
  cv::rectangle(img, area, cv::Scalar(180, 180, 180), 1);
  cv::putText(img, title, {area.x + 5, area.y + 18}, cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
  if (ys.empty()) return;
  const double lo = *std::min_element(ys.begin(), ys.end()), hi = *std::max_element(ys.begin(), ys.end());
  const double span = hi - lo < 1e-12 ? 1.0 : hi - lo;  // a constant series (lr) is drawn flat; labels keep its value
  std::vector<cv::Point> pts;
  for (size_t i = 0; i < ys.size(); ++i) {
    const double fx = x_max > 0 ? static_cast<double>(xs[i]) / static_cast<double>(x_max) : 0.0;
    const double fy = (ys[i] - lo) / span;
    pts.emplace_back(area.x + 5 + static_cast<int>(fx * (area.width - 10)),
                     area.y + area.height - 5 - static_cast<int>(fy * (area.height - 30)));
  }
  cv::polylines(img, pts, false, colour, 2, cv::LINE_AA);
  for (const auto& p : pts) cv::circle(img, p, 2, colour, -1);
  char buf[96];
  std::snprintf(buf, sizeof(buf), "min %.4g  max %.4g  last %.4g", lo, hi, ys.back());
  cv::putText(img, buf, {area.x + area.width - 300, area.y + 18}, cv::FONT_HERSHEY_SIMPLEX, 0.45,
              cv::Scalar(60, 60, 60), 1, cv::LINE_AA);
}

bool TrainingCurve::save_png(const std::string& path, const std::string& metric_name) const {
  const int w = 800, h = 200;
  cv::Mat img(3 * h + 30, w, CV_8UC3, cv::Scalar(255, 255, 255));
  long x_max = 1;
  if (!steps_.empty()) x_max = std::max(x_max, steps_.back());
  if (!eval_steps_.empty()) x_max = std::max(x_max, eval_steps_.back());
  draw_panel(img, {0, 0, w, h}, steps_, losses_, x_max, "loss", cv::Scalar(200, 60, 30));
  draw_panel(img, {0, h, w, h}, eval_steps_, metrics_, x_max, "eval " + metric_name, cv::Scalar(30, 150, 30));
  draw_panel(img, {0, 2 * h, w, h}, steps_, lrs_, x_max, "lr", cv::Scalar(30, 30, 200));
  cv::putText(img, "global_step 0 .. " + std::to_string(x_max), {5, 3 * h + 20}, cv::FONT_HERSHEY_SIMPLEX, 0.5,
              cv::Scalar(0, 0, 0), 1, cv::LINE_AA);
  std::vector<uchar> png;
  if (!cv::imencode(".png", img, png)) return false;
  write_file_atomic(path, std::string(png.begin(), png.end()));
  return true;
}

}  // namespace ocrforge
