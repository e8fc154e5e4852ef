#include "ocrforge/train/optim/optimizer_spec.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"

#include <sstream>

namespace ocrforge {

OptimizerSpec optimizer_spec_from_yaml(const YAML::Node& o, int epoch_num) {
  OptimizerSpec s;
  if (!o || !o.IsMap()) throw UsageError("config section 'Optimizer' is missing or not a map");
  const std::string p = "Optimizer";
  read_key(o, p, "name", &s.name);
  if (s.name != "Adam" && s.name != "AdamW" && s.name != "Momentum" && s.name != "SGD")
    throw UsageError("Optimizer.name: unknown optimizer '" + s.name + "' (known: Adam, AdamW, Momentum, SGD)");
  // Each optimizer's own keys are read only for it: a key another optimizer
  // uses (weight_decay on Adam) would have no effect, so it is reported as unknown.
  if (s.name == "Adam" || s.name == "AdamW") {
    if (read_key(o, p, "beta1", &s.beta1)) require_between(s.beta1, 0, 0.999999, "Optimizer.beta1");
    if (read_key(o, p, "beta2", &s.beta2)) require_between(s.beta2, 0, 0.999999999, "Optimizer.beta2");
    if (read_key(o, p, "epsilon", &s.epsilon)) require_above(s.epsilon, 0, "Optimizer.epsilon");
  }
  if (s.name == "Momentum" && read_key(o, p, "momentum", &s.momentum))
    require_at_least(s.momentum, 0, "Optimizer.momentum");
  if (s.name == "AdamW") {
    if (read_key(o, p, "weight_decay", &s.weight_decay)) require_at_least(s.weight_decay, 0, "Optimizer.weight_decay");
    read_key(o, p, "one_dim_param_no_weight_decay", &s.one_dim_param_no_weight_decay);
    std::string names;
    if (read_key(o, p, "no_weight_decay_name", &names)) {
      std::istringstream words(names);  // PaddleOCR splits the string on whitespace
      for (std::string w; words >> w;) s.no_weight_decay_names.push_back(w);
    }
  }
  if (read_key(o, p, "clip_norm", &s.clip_norm)) require_at_least(s.clip_norm, 0, "Optimizer.clip_norm");
  if (read_key(o, p, "clip_norm_global", &s.clip_norm_global))
    require_at_least(s.clip_norm_global, 0, "Optimizer.clip_norm_global");
  if (const auto r = o["regularizer"]; r && r.IsMap()) {
    std::string rname = "L2";
    read_key(r, "Optimizer.regularizer", "name", &rname);
    if (rname != "L2")
      throw UsageError("Optimizer.regularizer.name: '" + rname + "' is not supported yet (supported: L2)");
    if (read_key(r, "Optimizer.regularizer", "factor", &s.l2_factor))
      require_at_least(s.l2_factor, 0, "Optimizer.regularizer.factor");
  }
  s.lr = lr_spec_from_yaml(o["lr"], epoch_num);
  return s;
}

}  // namespace ocrforge
