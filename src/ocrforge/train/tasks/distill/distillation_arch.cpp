#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

namespace {

// Keys that describe a member's place in the distillation, not its network.
const std::vector<std::string> kMemberKeys = {"pretrained", "freeze_params", "return_all_feats", "character_dict_path",
                                              "use_space_char"};

DistillMemberSpec member_from_yaml(const std::string& name, const YAML::Node& n, ModelType model_type) {
  DistillMemberSpec m;
  m.name = name;
  m.path = "Architecture.Models." + name;
  if (!n || !n.IsMap())
    throw UsageError(m.path + ": expected a model section (model_type, algorithm, Backbone, Neck, Head)");
  read(n, "freeze_params", m.path, m.freeze_params);
  read(n, "pretrained", m.path, m.pretrained);
  read(n, "character_dict_path", m.path, m.character_dict_path);
  if (present(n, "use_space_char")) {
    bool v = true;
    read(n, "use_space_char", m.path, v);
    m.use_space_char = v;
  }
  bool all_feats = false;
  read(n, "return_all_feats", m.path, all_feats);  // informational: every feature is always returned
  const ModelType own_type = read_model_type(n, m.path, model_type);
  if (own_type != model_type)
    throw UsageError(m.path + ".model_type: '" + model_type_name(own_type) + "' differs from Architecture.model_type '" +
                     model_type_name(model_type) + "'; every model of a distillation does the same task");
  std::string algorithm;
  read(n, "algorithm", m.path, algorithm);
  if (algorithm == "Distillation")
    throw UsageError(m.path + ".algorithm: a distillation model cannot contain another distillation");
  m.onnx = algorithm == "ONNX";
  m.arch = YAML::Node(YAML::NodeType::Map);
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    bool member_key = false;
    for (const auto& k : kMemberKeys) member_key = member_key || k == key;
    if (!member_key) m.arch[key] = YAML::Clone(kv.second);
  }
  if (!present(m.arch, "model_type")) m.arch["model_type"] = model_type_name(model_type);
  return m;
}

}  // namespace

const DistillMemberSpec* DistillArchSpec::find(const std::string& name) const {
  for (const auto& m : models)
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> DistillArchSpec::names() const {
  std::vector<std::string> out;
  for (const auto& m : models) out.push_back(m.name);
  return out;
}

bool is_distillation_architecture(const YAML::Node& architecture) {
  return architecture && architecture.IsMap() && present(architecture, "algorithm") &&
         architecture["algorithm"].as<std::string>() == "Distillation";
}

DistillArchSpec distillation_arch_from_yaml(const YAML::Node& a) {
  const std::string path = "Architecture";
  DistillArchSpec s;
  s.model_type = read_model_type(a, path);
  std::string name = "DistillationModel";
  read(a, "name", path, name);
  if (name != "DistillationModel")
    throw UsageError(path + ".name: '" + name + "'; a Distillation architecture is a DistillationModel");
  const YAML::Node models = a["Models"];
  if (!models || !models.IsMap() || models.size() == 0)
    throw UsageError(path + ".Models: missing; a distillation needs its models, e.g. Models: {Teacher: {...}, "
                            "Student: {...}}");
  for (const auto& kv : models) s.models.push_back(member_from_yaml(kv.first.as<std::string>(), kv.second, s.model_type));
  return s;
}

void rethrow_under_member(const DistillMemberSpec& m, const std::string& message) {
  // The member's network is read as if it were the whole Architecture section.
  const std::string from = "Architecture.", to = m.path + ".";
  std::string out;
  size_t start = 0;
  for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, start)) {
    out += message.substr(start, at - start) + to;
    start = at + from.size();
  }
  out += message.substr(start);
  // A message about the section itself ("Architecture: missing") names the member too.
  if (out == message) out = m.path + ": " + message;
  throw UsageError(out);
}

}  // namespace ocrforge
