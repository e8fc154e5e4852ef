#include "ocrforge/train/optim/optimizer_spec.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"

namespace ocrforge {

OptimizerSpec optimizer_spec_from_yaml(const YAML::Node& o, int epoch_num) {
  OptimizerSpec s;
  if (!o || !o.IsMap()) throw UsageError("config section 'Optimizer' is missing or not a map");
  s.name = o["name"] ? o["name"].as<std::string>() : "Adam";
  if (s.name != "Adam" && s.name != "AdamW" && s.name != "Momentum" && s.name != "SGD")
    throw UsageError("Optimizer.name: unknown optimizer '" + s.name + "' (known: Adam, AdamW, Momentum, SGD)");
  if (o["beta1"]) s.beta1 = o["beta1"].as<double>();
  if (o["beta2"]) s.beta2 = o["beta2"].as<double>();
  if (o["epsilon"]) s.epsilon = o["epsilon"].as<double>();
  if (o["momentum"]) s.momentum = o["momentum"].as<double>();
  if (o["weight_decay"]) s.weight_decay = o["weight_decay"].as<double>();
  if (o["one_dim_param_no_weight_decay"]) s.one_dim_param_no_weight_decay = o["one_dim_param_no_weight_decay"].as<bool>();
  if (o["clip_norm"]) s.clip_norm = o["clip_norm"].as<double>();
  if (o["clip_norm_global"]) s.clip_norm_global = o["clip_norm_global"].as<double>();
  if (const auto r = o["regularizer"]; r && r.IsMap()) {
    const std::string rname = r["name"] ? r["name"].as<std::string>() : "L2";
    if (rname != "L2")
      throw UsageError("Optimizer.regularizer.name: '" + rname + "' is not supported yet (supported: L2)");
    s.l2_factor = r["factor"] ? r["factor"].as<double>() : 0.0;
  }
  s.lr = lr_spec_from_yaml(o["lr"], epoch_num);
  return s;
}

}  // namespace ocrforge
