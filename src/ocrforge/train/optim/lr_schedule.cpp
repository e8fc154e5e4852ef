#include "ocrforge/train/optim/lr_schedule.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"

namespace ocrforge {

LrSpec lr_spec_from_yaml(const YAML::Node& lr, int epoch_num) {
  LrSpec s;
  s.epochs = epoch_num;
  if (!lr || lr.IsNull()) return s;
  const std::string p = "Optimizer.lr";
  if (lr.IsScalar()) {  // "lr: 0.001" is accepted as a constant rate
    s.learning_rate = config_detail::convert<double>(lr, p);
    require_above(s.learning_rate, 0, p);
    return s;
  }
  s.name = "Const";
  read_key(lr, p, "name", &s.name);
  const std::vector<std::string> known = {"Cosine", "Piecewise", "Linear", "Const"};
  if (std::find(known.begin(), known.end(), s.name) == known.end())
    throw UsageError("Optimizer.lr.name: unknown schedule '" + s.name + "' (known: Cosine, Piecewise, Linear, Const)");
  // Each schedule's own keys are read only for it: a key it does not use
  // (decay_epochs on Const) is reported as unknown rather than ignored.
  if (s.name != "Piecewise" && read_key(lr, p, "learning_rate", &s.learning_rate))
    require_above(s.learning_rate, 0, p + ".learning_rate");
  if (read_key(lr, p, "warmup_epoch", &s.warmup_epoch)) require_at_least(s.warmup_epoch, 0, p + ".warmup_epoch");
  if (s.name == "Piecewise") {
    read_key(lr, p, "decay_epochs", &s.decay_epochs);
    if (read_key(lr, p, "values", &s.values))
      for (double v : s.values) require_at_least(v, 0, p + ".values");
  }
  if (s.name == "Linear") {
    if (read_key(lr, p, "end_lr", &s.end_lr)) require_at_least(s.end_lr, 0, p + ".end_lr");
    read_key(lr, p, "power", &s.power);
  }
  if ((s.name == "Linear" || s.name == "Cosine") && read_key(lr, p, "epochs", &s.epochs))
    require_at_least(s.epochs, 1, p + ".epochs");
  if (s.name == "Piecewise") {
    // Paddle's PiecewiseDecay keeps the last value past the last boundary, so
    // PaddleOCR's own configs list as many values as decay_epochs
    // (ch_PP-OCRv3_rec_distillation.yml: [700, 800] / [0.0005, 0.00005]).
    if (s.values.empty() || (s.values.size() != s.decay_epochs.size() + 1 && s.values.size() != s.decay_epochs.size()))
      throw UsageError("Optimizer.lr: Piecewise needs as many values as decay_epochs, or one more (got " +
                       std::to_string(s.values.size()) + " values, " + std::to_string(s.decay_epochs.size()) +
                       " decay_epochs)");
    s.learning_rate = s.values[0];
  }
  return s;
}

LrSchedule::LrSchedule(LrSpec spec, long steps_per_epoch)
    : spec_(std::move(spec)),
      steps_per_epoch_(std::max(1L, steps_per_epoch)),
      // PaddleOCR: warmup_steps = round(warmup_epoch * step_each_epoch).
      warmup_steps_(std::lround(spec_.warmup_epoch * static_cast<double>(steps_per_epoch_))) {}

double LrSchedule::after_warmup(long step) const {
  const double total = static_cast<double>(spec_.epochs) * static_cast<double>(steps_per_epoch_);
  const double t = static_cast<double>(step);
  if (spec_.name == "Cosine") {
    // CosineAnnealingDecay with T_max = epochs * steps (eta_min 0).
    return spec_.learning_rate * 0.5 * (1.0 + std::cos(M_PI * t / total));
  }
  if (spec_.name == "Linear") {
    // PolynomialDecay(decay_steps = epochs * steps, end_lr, power), no cycle.
    const double frac = 1.0 - std::min(t, total) / total;
    return (spec_.learning_rate - spec_.end_lr) * std::pow(frac, spec_.power) + spec_.end_lr;
  }
  if (spec_.name == "Piecewise") {
    size_t i = 0;
    while (i < spec_.decay_epochs.size() &&
           t >= std::lround(spec_.decay_epochs[i] * static_cast<double>(steps_per_epoch_)))
      ++i;
    return spec_.values[std::min(i, spec_.values.size() - 1)];
  }
  return spec_.learning_rate;
}

double LrSchedule::at(long step) const {
  if (step < warmup_steps_) {
    // Paddle's LinearWarmup(start_lr=0, end_lr=learning_rate).
    return spec_.learning_rate * static_cast<double>(step) / static_cast<double>(warmup_steps_);
  }
  // After warm-up the inner schedule runs from its own step 0.
  return after_warmup(step - warmup_steps_);
}

}  // namespace ocrforge
