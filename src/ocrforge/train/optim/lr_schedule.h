// Learning-rate schedules of PaddleOCR's ppocr/optimizer/learning_rate.py,
// stepped every iteration: Cosine, Piecewise, Linear (polynomial, power 1 by
// default), Const, each with an optional linear warm-up from 0 over
// `warmup_epoch` epochs. The rate is a pure function of the global step, so a
// resumed run continues exactly where it stopped.
#pragma once
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace ocrforge {

struct LrSpec {
  std::string name = "Const";
  double learning_rate = 0.001;
  double warmup_epoch = 0;              // may be fractional
  std::vector<double> decay_epochs;     // Piecewise boundaries, in epochs
  std::vector<double> values;           // Piecewise rates (one more than boundaries)
  double end_lr = 0.0;                  // Linear
  double power = 1.0;                   // Linear
  int epochs = 1;                       // Global.epoch_num unless Optimizer.lr.epochs is set
};

// From Optimizer.lr; `epoch_num` is Global.epoch_num. Unknown names throw
// UsageError listing the known ones.
LrSpec lr_spec_from_yaml(const YAML::Node& lr, int epoch_num);

class LrSchedule {
 public:
  LrSchedule(LrSpec spec, long steps_per_epoch);
  // Rate for the step about to run (0-based global step).
  double at(long step) const;
  const LrSpec& spec() const { return spec_; }

 private:
  double after_warmup(long step) const;
  LrSpec spec_;
  long steps_per_epoch_;
  long warmup_steps_;
};

}  // namespace ocrforge
