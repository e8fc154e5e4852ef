#include "ocrforge/train/tasks/distill/det_distill_loss_spec.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/nn/combined_loss_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

namespace {

// A list of pairs, or (DML only, as PaddleOCR's _check_model_name_pairs) one flat pair.
void read_pairs(const YAML::Node& n, const std::string& path, const std::vector<std::string>& models, bool flat_ok,
                DetDistillLossTerm& t) {
  const std::string p = path + ".model_name_pairs";
  note_config_read(p);
  const YAML::Node list = n["model_name_pairs"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw UsageError(p + ": missing; list the models to compare, e.g. [[Student, Teacher]]");
  if (flat_ok && list[0].IsScalar()) {
    t.pairs.push_back(read_model_pair(list, p, models));
    return;
  }
  for (const auto& pair : list) t.pairs.push_back(read_model_pair(pair, p, models));
}

// The DBLoss keys of the two DB-style terms: read for their types, compared
// with the defaults PaddleOCR actually uses.
void read_db_keys(const YAML::Node& n, const std::string& path, DetDistillLossTerm& t) {
  const DBLossSpec defaults;
  DBLossSpec given;
  read(n, "balance_loss", path, given.balance_loss);
  read(n, "main_loss_type", path, given.main_loss_type);
  read(n, "alpha", path, given.alpha);
  read(n, "beta", path, given.beta);
  read(n, "ohem_ratio", path, given.ohem_ratio);
  read(n, "eps", path, given.eps);
  const auto differs = [](double a, double b) { return std::abs(a - b) > 1e-12; };
  const auto note = [&](const char* key, const std::string& value) {
    t.ignored.push_back(std::string(key) + ": " + value);
  };
  const auto num = [](double v) {
    std::ostringstream s;
    s << v;
    return s.str();
  };
  if (given.balance_loss != defaults.balance_loss) note("balance_loss", given.balance_loss ? "true" : "false");
  if (given.main_loss_type != defaults.main_loss_type) note("main_loss_type", given.main_loss_type);
  if (differs(given.alpha, defaults.alpha)) note("alpha", num(given.alpha));
  if (differs(given.beta, defaults.beta)) note("beta", num(given.beta));
  if (differs(given.ohem_ratio, defaults.ohem_ratio)) note("ohem_ratio", num(given.ohem_ratio));
  if (differs(given.eps, defaults.eps)) note("eps", num(given.eps));
  t.db = defaults;
}

void check_maps_key(const YAML::Node& n, const std::string& path, bool required) {
  std::string key;
  read(n, "key", path, key);
  if (key.empty() && !required) return;
  if (key != "maps")
    throw UsageError(path + ".key: " + (key.empty() ? std::string("missing") : "'" + key + "'") +
                     "; a DB model's output is its maps: use key: maps");
}

DetDistillLossTerm term_from_yaml(const std::string& kind, const YAML::Node& n, const std::string& path,
                                  const std::vector<std::string>& models) {
  DetDistillLossTerm t;
  t.kind = kind;
  t.path = path;
  const YAML::Node args = n && n.IsMap() ? n : YAML::Node(YAML::NodeType::Map);
  if (kind == "DistillationDilaDBLoss") {
    t.name = "dila_dbloss";
    read_pairs(args, path, models, /*flat_ok=*/false, t);
    check_maps_key(args, path, /*required=*/true);  // PaddleOCR reads the maps only through the key
    read_db_keys(args, path, t);
  } else if (kind == "DistillationDMLLoss") {
    t.name = "dml";
    note_config_read(path + ".maps_name");
    if (!present(args, "maps_name"))
      throw UsageError(path + ".maps_name: missing; a detection DML compares one map: thrink_maps, threshold_maps "
                              "or binary_maps");
    if (!args["maps_name"].IsScalar())
      throw UsageError(path + ".maps_name: give one map name (thrink_maps, threshold_maps or binary_maps); "
                              "PaddleOCR compares nothing for a list");
    t.maps_name = args["maps_name"].as<std::string>();
    if (t.maps_name != "thrink_maps" && t.maps_name != "threshold_maps" && t.maps_name != "binary_maps")
      throw UsageError(path + ".maps_name: '" + t.maps_name +
                       "' (known: thrink_maps, threshold_maps, binary_maps; PaddleOCR spells the shrink map "
                       "'thrink_maps')");
    read_pairs(args, path, models, /*flat_ok=*/true, t);
    check_maps_key(args, path, /*required=*/true);
    read(args, "act", path, t.act);
    if (!t.act.empty() && t.act != "softmax" && t.act != "sigmoid")
      throw UsageError(path + ".act: '" + t.act + "' (known: softmax, sigmoid; leave it out for the maps as they are)");
    read(args, "use_log", path, t.use_log);
    bool multi_head = false;
    read(args, "multi_head", path, multi_head);
    if (multi_head) throw UsageError(path + ".multi_head: a recognition option; a DB model has one head");
  } else if (kind == "DistillationDBLoss") {
    t.name = "db";
    read(args, "model_name_list", path, t.models);
    if (t.models.empty())
      throw UsageError(path + ".model_name_list: missing; list the models trained on the labels, e.g. [Student]");
    for (const auto& m : t.models) check_distill_model(m, models, path + ".model_name_list");
    check_maps_key(args, path, /*required=*/false);  // PaddleOCR ignores it (self.key = None)
    read_db_keys(args, path, t);
  } else if (kind == "DistillationCTCLoss" || kind == "DistillationSARLoss" || kind == "DistillationDistanceLoss") {
    throw UsageError(path + ": '" + kind + "' is a recognition loss; a detection distillation uses "
                     "DistillationDilaDBLoss, DistillationDMLLoss (maps_name) and DistillationDBLoss");
  } else {
    throw UsageError(path + ": unknown loss '" + kind +
                     "' (known for detection: DistillationDilaDBLoss, DistillationDMLLoss, DistillationDBLoss)");
  }
  if (!present(args, "weight"))
    throw UsageError(path + ".weight: missing; PaddleOCR's CombinedLoss requires a weight for each term");
  read(args, "weight", path, t.weight);
  read(args, "name", path, t.name);
  return t;
}

}  // namespace

int DetDistillLossTerm::map_channel() const {
  if (maps_name == "threshold_maps") return 1;
  if (maps_name == "binary_maps") return 2;
  return 0;
}

bool is_det_distill_loss(const YAML::Node& loss) {
  if (!loss || !loss.IsMap() || !loss["loss_config_list"] || !loss["loss_config_list"].IsSequence()) return false;
  for (const auto& item : loss["loss_config_list"]) {
    if (!item.IsMap() || item.size() != 1) continue;
    const std::string kind = item.begin()->first.as<std::string>();
    const YAML::Node args = item.begin()->second;
    if (kind == "DistillationDilaDBLoss" || kind == "DistillationDBLoss") return true;
    if (kind == "DistillationDMLLoss" && args.IsMap() && present(args, "maps_name")) return true;
  }
  return false;
}

std::vector<DetDistillLossTerm> det_distill_loss_from_yaml(const YAML::Node& loss,
                                                           const std::vector<std::string>& models) {
  std::vector<DetDistillLossTerm> terms;
  for (const CombinedLossEntry& e :
       combined_loss_entries(loss, "a detection distillation", "DistillationDilaDBLoss / DistillationDMLLoss / DistillationDBLoss",
                             "DistillationDBLoss: {weight: 1.0, model_name_list: [Student]}"))
    terms.push_back(term_from_yaml(e.kind, e.args, e.path, models));
  return terms;
}

}  // namespace ocrforge
