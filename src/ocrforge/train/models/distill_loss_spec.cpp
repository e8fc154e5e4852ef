#include "ocrforge/train/models/distill_loss_spec.h"

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/train/models/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

namespace {

void check_model(const std::string& name, const std::vector<std::string>& models, const std::string& path) {
  if (std::find(models.begin(), models.end(), name) == models.end())
    throw UsageError(path + ": '" + name + "' is not a model of Architecture.Models (" + join(models) + ")");
}

void check_choice(const std::string& value, const std::vector<std::string>& allowed, const std::string& path) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    throw UsageError(path + ": '" + value + "' (known: " + join(allowed) + ")");
}

void read_pairs(const YAML::Node& n, const std::string& path, const std::vector<std::string>& models,
                DistillLossTerm& t) {
  const std::string p = path + ".model_name_pairs";
  if (!present(n, "model_name_pairs") || !n["model_name_pairs"].IsSequence() || n["model_name_pairs"].size() == 0)
    throw UsageError(p + ": missing; list the models to compare, e.g. [[Student, Teacher]]");
  for (const auto& pair : n["model_name_pairs"]) {
    if (!pair.IsSequence() || pair.size() != 2)
      throw UsageError(p + ": each entry is a pair of model names, e.g. [Student, Teacher]");
    const auto a = pair[0].as<std::string>(), b = pair[1].as<std::string>();
    check_model(a, models, p);
    check_model(b, models, p);
    if (a == b) throw UsageError(p + ": [" + a + ", " + b + "] compares a model with itself");
    t.pairs.emplace_back(a, b);
  }
}

void read_list(const YAML::Node& n, const std::string& path, const std::vector<std::string>& models,
               DistillLossTerm& t) {
  const std::string p = path + ".model_name_list";
  read(n, "model_name_list", path, t.models);
  if (t.models.empty()) throw UsageError(p + ": missing; list the models whose own loss counts, e.g. [Student]");
  for (const auto& m : t.models) check_model(m, models, p);
}

DistillLossTerm term_from_yaml(const std::string& kind, const YAML::Node& n, const std::string& path,
                               const std::vector<std::string>& models) {
  DistillLossTerm t;
  t.kind = kind;
  t.path = path;
  const YAML::Node args = n && n.IsMap() ? n : YAML::Node(YAML::NodeType::Map);
  if (present(args, "maps_name"))
    throw UsageError(path + ".maps_name: detection distillation (CML) is not supported yet");
  if (kind == "DistillationDMLLoss") {
    check_keys(args, path, {"weight", "act", "use_log", "model_name_pairs", "key", "multi_head", "dis_head", "name"});
    t.name = "dml";
    read_pairs(args, path, models, t);
    read(args, "act", path, t.act);
    if (!t.act.empty()) check_choice(t.act, {"softmax", "sigmoid"}, path + ".act");
    read(args, "use_log", path, t.use_log);
    read(args, "dis_head", path, t.dis_head);
    check_choice(t.dis_head, {"ctc", "sar"}, path + ".dis_head");
  } else if (kind == "DistillationDistanceLoss") {
    check_keys(args, path, {"weight", "mode", "model_name_pairs", "key", "name"});
    t.name = "loss_distance";
    read_pairs(args, path, models, t);
    read(args, "mode", path, t.mode);
    check_choice(t.mode, {"l1", "l2", "smooth_l1"}, path + ".mode");
  } else if (kind == "DistillationCTCLoss" || kind == "DistillationSARLoss") {
    const bool sar = kind == "DistillationSARLoss";
    std::vector<std::string> keys = {"weight", "model_name_list", "key", "multi_head", "name"};
    if (sar) keys.push_back("ignore_index");
    check_keys(args, path, keys);
    t.name = sar ? "loss_sar" : "loss_ctc";
    read_list(args, path, models, t);
    if (sar && present(args, "ignore_index")) {
      long index = 0;
      read(args, "ignore_index", path, index);
      t.ignore_index = index;
    }
  } else {
    throw UsageError(path + ": unknown loss '" + kind +
                     "' (known: DistillationDMLLoss, DistillationDistanceLoss, DistillationCTCLoss, "
                     "DistillationSARLoss)");
  }
  read(args, "weight", path, t.weight);
  read(args, "name", path, t.name);
  read(args, "key", path, t.key);
  check_choice(t.key, {"head_out", "backbone_out", "neck_out"}, path + ".key");
  read(args, "multi_head", path, t.multi_head);
  if (kind == "DistillationDMLLoss" && t.key != "head_out")
    throw UsageError(path + ".key: DML compares class distributions; use key: head_out");
  return t;
}

}  // namespace

std::vector<DistillLossTerm> distill_loss_from_yaml(const YAML::Node& loss, const std::vector<std::string>& models) {
  const std::string name = loss && loss.IsMap() && present(loss, "name") ? loss["name"].as<std::string>() : "";
  if (name != "CombinedLoss")
    throw UsageError("Loss.name: '" + name + "'; a Distillation architecture trains with name: CombinedLoss and a "
                     "loss_config_list of DistillationDMLLoss / DistillationDistanceLoss / DistillationCTCLoss");
  check_keys(loss, "Loss", {"name", "loss_config_list"});
  const YAML::Node list = loss["loss_config_list"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw UsageError("Loss.loss_config_list: missing or empty; list the loss terms, e.g. "
                     "- DistillationCTCLoss: {model_name_list: [Student]}");
  std::vector<DistillLossTerm> terms;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "Loss.loss_config_list[" + std::to_string(i) + "]";
    if (!list[i].IsMap() || list[i].size() != 1)
      throw UsageError(path + ": each entry is one loss, e.g. - DistillationCTCLoss: {weight: 1.0, ...}");
    const std::string kind = list[i].begin()->first.as<std::string>();
    terms.push_back(term_from_yaml(kind, list[i].begin()->second, path + "." + kind, models));
  }
  return terms;
}

}  // namespace ocrforge
