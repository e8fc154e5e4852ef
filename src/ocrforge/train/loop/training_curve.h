// The training record written at each evaluation: metrics.jsonl (one JSON
// object per evaluation) and a PNG of loss, accuracy and learning rate
// against the global step.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

class TrainingCurve {
 public:
  void add_train_point(long step, double loss, double lr);
  void add_eval_point(long step, double metric);
  // Writes the PNG (atomically); returns false when OpenCV cannot encode.
  bool save_png(const std::string& path, const std::string& metric_name) const;
  bool empty() const { return steps_.empty(); }

 private:
  std::vector<long> steps_, eval_steps_;
  std::vector<double> losses_, lrs_, metrics_;
};

}  // namespace ocrforge
