// Window average of the last N values (PaddleOCR's log_smooth_window).
#pragma once
#include <deque>

namespace ocrforge {

class SmoothedValue {
 public:
  explicit SmoothedValue(int window = 20) : window_(window > 0 ? window : 1) {}
  void add(double v) {
    values_.push_back(v);
    sum_ += v;
    if (static_cast<int>(values_.size()) > window_) {
      sum_ -= values_.front();
      values_.pop_front();
    }
  }
  double average() const { return values_.empty() ? 0.0 : sum_ / static_cast<double>(values_.size()); }
  bool empty() const { return values_.empty(); }

 private:
  int window_;
  std::deque<double> values_;
  double sum_ = 0.0;
};

}  // namespace ocrforge
