#include "ocrforge/train/tasks/distill/distill_loss_spec.h"

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/nn/combined_loss_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

namespace {

void check_choice(const std::string& value, const std::vector<std::string>& allowed, const std::string& path) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    throw UsageError(path + ": '" + value + "' (known: " + join(allowed) + ")");
}

void read_pairs(const YAML::Node& n, const std::string& path, const std::vector<std::string>& models,
                DistillLossTerm& t) {
  const std::string p = path + ".model_name_pairs";
  note_config_read(p);
  if (!present(n, "model_name_pairs") || !n["model_name_pairs"].IsSequence() || n["model_name_pairs"].size() == 0)
    throw UsageError(p + ": missing; list the models to compare, e.g. [[Student, Teacher]]");
  for (const auto& pair : n["model_name_pairs"]) t.pairs.push_back(read_model_pair(pair, p, models));
}

void read_list(const YAML::Node& n, const std::string& path, const std::vector<std::string>& models,
               DistillLossTerm& t) {
  const std::string p = path + ".model_name_list";
  read(n, "model_name_list", path, t.models);
  if (t.models.empty()) throw UsageError(p + ": missing; list the models whose own loss counts, e.g. [Student]");
  for (const auto& m : t.models) check_distill_model(m, models, p);
}

DistillLossTerm term_from_yaml(const std::string& kind, const YAML::Node& n, const std::string& path,
                               const std::vector<std::string>& models) {
  DistillLossTerm t;
  t.kind = kind;
  t.path = path;
  const YAML::Node args = n && n.IsMap() ? n : YAML::Node(YAML::NodeType::Map);
  if (present(args, "maps_name"))
    throw UsageError(path + ".maps_name: a term on detection maps, but this distillation is a recognizer; CML "
                     "(maps_name) needs Architecture.model_type: det");
  if (kind == "DistillationDMLLoss") {
    t.name = "dml";
    read_pairs(args, path, models, t);
    read(args, "act", path, t.act);
    if (!t.act.empty()) check_choice(t.act, {"softmax", "sigmoid"}, path + ".act");
    read(args, "use_log", path, t.use_log);
    read(args, "dis_head", path, t.dis_head);
    check_choice(t.dis_head, {"ctc", "sar"}, path + ".dis_head");
  } else if (kind == "DistillationDistanceLoss") {
    t.name = "loss_distance";
    read_pairs(args, path, models, t);
    read(args, "mode", path, t.mode);
    check_choice(t.mode, {"l1", "l2", "smooth_l1"}, path + ".mode");
  } else if (kind == "DistillationCTCLoss" || kind == "DistillationSARLoss") {
    const bool sar = kind == "DistillationSARLoss";
    t.name = sar ? "loss_sar" : "loss_ctc";
    read_list(args, path, models, t);
    if (sar && present(args, "ignore_index")) {
      long index = 0;
      read(args, "ignore_index", path, index);
      t.ignore_index = index;
    }
  } else if (kind == "DistillationNRTRLoss") {
    t.name = "loss_nrtr";
    read_list(args, path, models, t);
    read(args, "smoothing", path, t.smoothing);
  } else if (kind == "DistillationDKDLoss") {
    t.name = "dkd";
    read_pairs(args, path, models, t);
    read(args, "temperature", path, t.temperature);
    read(args, "alpha", path, t.alpha);
    read(args, "beta", path, t.beta);
    read(args, "dis_head", path, t.dis_head);
    if (!(t.temperature > 0)) throw UsageError(path + ".temperature: must be > 0");
  } else if (kind == "DistillCTCLogits") {
    t.name = "ctc_logits";
    read_pairs(args, path, models, t);
    std::string reduction = "mean";
    read(args, "reduction", path, reduction);  // stored by PaddleOCR's KLCTCLogits, never used
    check_choice(reduction, {"mean", "sum", "none"}, path + ".reduction");
  } else {
    throw UsageError(path + ": unknown loss '" + kind + "' (known: " + join(distill_loss_kinds()) + ")");
  }
  read(args, "weight", path, t.weight);
  read(args, "name", path, t.name);
  read(args, "key", path, t.key);
  check_choice(t.key, {"head_out", "backbone_out", "neck_out"}, path + ".key");
  read(args, "multi_head", path, t.multi_head);
  if (kind == "DistillationDMLLoss" && t.key != "head_out")
    throw UsageError(path + ".key: DML compares class distributions; use key: head_out");
  if ((kind == "DistillationDKDLoss" || kind == "DistillCTCLogits" || kind == "DistillationNRTRLoss") &&
      t.key != "head_out")
    throw UsageError(path + ".key: " + kind + " reads the heads' outputs; use key: head_out");
  if (kind == "DistillationDKDLoss" && (!t.multi_head || t.dis_head != "gtc"))
    throw UsageError(path + ": PaddleOCR computes DKD between the NRTR outputs of two MultiHead models, whose "
                     "target is label_gtc; set multi_head: true and dis_head: gtc");
  return t;
}

}  // namespace

const std::vector<std::string>& distill_loss_kinds() {
  static const std::vector<std::string> kinds = {"DistillationDMLLoss",  "DistillationDistanceLoss",
                                                 "DistillationCTCLoss",  "DistillationSARLoss",
                                                 "DistillationNRTRLoss", "DistillationDKDLoss",
                                                 "DistillCTCLogits"};
  return kinds;
}

std::vector<DistillLossTerm> distill_loss_from_yaml(const YAML::Node& loss, const std::vector<std::string>& models) {
  std::vector<DistillLossTerm> terms;
  for (const CombinedLossEntry& e : combined_loss_entries(
           loss, "a Distillation architecture",
           join(distill_loss_kinds()),
           "DistillationCTCLoss: {weight: 1.0, model_name_list: [Student]}"))
    terms.push_back(term_from_yaml(e.kind, e.args, e.path, models));
  return terms;
}

}  // namespace ocrforge
