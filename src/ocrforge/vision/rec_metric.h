// Recognition metrics (PaddleOCR's RecMetric): acc (exact match) and
// norm_edit_dis = 1 - mean(edit distance / max(len(pred), len(label), 1)).
#pragma once
#include <string>

namespace ocrforge {

class RecMetric {
 public:
  // ignore_space: compare with spaces removed (PaddleOCR's is_filter default
  // is off; ignore_space default is on).
  explicit RecMetric(bool ignore_space = true) : ignore_space_(ignore_space) {}
  // Counts one sample; true when it counted as correct (exact match).
  bool add(const std::string& pred, const std::string& label);
  double acc() const;
  double norm_edit_dis() const;
  long count() const { return count_; }
  void reset() { *this = RecMetric(ignore_space_); }

 private:
  bool ignore_space_;
  long count_ = 0;
  long correct_ = 0;
  double norm_edit_sum_ = 0.0;
};

}  // namespace ocrforge
