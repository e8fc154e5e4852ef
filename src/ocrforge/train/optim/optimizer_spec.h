// PaddleOCR's Optimizer section as a typed struct (no torch here).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/optim/lr_schedule.h"

namespace ocrforge {

struct OptimizerSpec {
  std::string name = "Adam";       // Adam | AdamW | Momentum | SGD
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double momentum = 0.9;
  double weight_decay = 0.01;      // AdamW's decoupled decay
  bool one_dim_param_no_weight_decay = false;  // AdamW: no decay on biases and norms
  // AdamW: no decay on parameters whose name contains one of these
  // (PaddleOCR's no_weight_decay_name, a space-separated string: "norm pos_embed").
  std::vector<std::string> no_weight_decay_names;
  double l2_factor = 0.0;          // regularizer {name: L2, factor}: coupled decay
  double clip_norm = 0.0;          // per-parameter gradient norm clip (0 = off)
  double clip_norm_global = 0.0;   // global gradient norm clip (0 = off)
  LrSpec lr;
};

// From the config's Optimizer section; unknown names throw UsageError
// listing the known ones.
OptimizerSpec optimizer_spec_from_yaml(const YAML::Node& optimizer, int epoch_num);

}  // namespace ocrforge
