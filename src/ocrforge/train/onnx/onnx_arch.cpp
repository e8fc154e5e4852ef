// Architecture for fine-tuning an ONNX model (onnx_arch.h).
#include "ocrforge/core/model_type.h"
#include "ocrforge/train/onnx/onnx_arch.h"

#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

namespace {

std::string with_thousands(int64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

bool is_onnx_architecture(const YAML::Node& architecture) {
  return architecture && architecture.IsMap() && architecture["algorithm"] &&
         architecture["algorithm"].as<std::string>("") == "ONNX";
}

OnnxArchSpec onnx_arch_from_yaml(const YAML::Node& a) {
  const std::string path = "Architecture";
  note_config_read(path + ".Transform");  // null is "none"; the others are refused below when set
  for (const char* native : {"Transform", "Backbone", "Neck", "Head"})
    if (arch_yaml::present(a, native))
      throw UsageError(path + "." + native + ": an ONNX model brings its own network; remove the " + native +
                       " section (algorithm: ONNX takes onnx_model, freeze, update_bn_stats)");
  OnnxArchSpec s;
  s.model_type = read_model_type(a, path);
  arch_yaml::read(a, "onnx_model", path, s.onnx_model);
  arch_yaml::read(a, "freeze", path, s.freeze);
  arch_yaml::read(a, "update_bn_stats", path, s.update_bn_stats);
  if (s.onnx_model.empty())
    throw UsageError(path + ".onnx_model: missing; algorithm ONNX fine-tunes a model file, e.g. "
                     "onnx_model: ./models/PP-OCRv4/rec/inference.onnx");
  if (!std::filesystem::is_regular_file(s.onnx_model))
    throw UsageError(path + ".onnx_model: '" + s.onnx_model + "' is not a file (run `make models` for the default "
                     "PP-OCRv4 models, or give the path of your .onnx)");
  return s;
}

std::string FreezeReport::summary() const {
  return "frozen " + std::to_string(frozen_tensors) + " of " + std::to_string(tensors) + " parameter tensors (" +
         with_thousands(frozen_weights) + " of " + with_thousands(weights) + " weights)";
}

FreezeReport freeze_parameters(OnnxGraphModule& model, const std::vector<std::string>& prefixes) {
  // module name -> ONNX value name, to match either spelling.
  std::map<std::string, std::string> onnx_name;
  for (const auto& [value, name] : model->value_to_tensor_name()) onnx_name[name] = value;
  std::vector<bool> matched(prefixes.size(), false);
  FreezeReport r;
  for (auto& p : model->named_parameters()) {
    const std::string& name = p.key();
    const auto it = onnx_name.find(name);
    const std::string value = it == onnx_name.end() ? name : it->second;
    bool freeze = false;
    for (size_t i = 0; i < prefixes.size(); ++i) {
      const std::string& pre = prefixes[i];
      if (pre == "*" || name.rfind(pre, 0) == 0 || value.rfind(pre, 0) == 0) freeze = matched[i] = true;
    }
    ++r.tensors;
    r.weights += p.value().numel();
    if (!freeze) continue;
    p.value().set_requires_grad(false);
    ++r.frozen_tensors;
    r.frozen_weights += p.value().numel();
  }
  for (size_t i = 0; i < prefixes.size(); ++i) {
    if (matched[i]) continue;
    std::string examples;
    int shown = 0;
    for (const auto& [value, name] : model->value_to_tensor_name()) {
      if (!model->named_parameters().contains(name)) continue;
      examples += (examples.empty() ? "" : ", ") + value;
      if (++shown == 5) break;
    }
    throw UsageError("Architecture.freeze: '" + prefixes[i] + "' matches no parameter of '" + model->path() +
                     "' (parameter names look like: " + examples + ", ...; '*' freezes all)");
  }
  return r;
}

OnnxTaskModel load_onnx_task_model(const YAML::Node& architecture, const std::string& kind) {
  OnnxTaskModel m;
  m.spec = onnx_arch_from_yaml(architecture);
  m.graph = OnnxGraphModule(m.spec.onnx_model);
  m.graph->set_update_bn_stats(m.spec.update_bn_stats);
  const FreezeReport freeze = freeze_parameters(m.graph, m.spec.freeze);
  m.logits = m.graph->pre_activation_output();
  if (m.logits.empty())
    throw UsageError("Architecture.onnx_model: '" + m.spec.onnx_model + "' does not end in a Softmax or Sigmoid; " +
                     "this task trains " + kind);
  m.log_line = "fine-tuning ONNX model " + m.spec.onnx_model + ": " + freeze.summary() +
               (m.spec.update_bn_stats ? "; batch norm updates its statistics" : "; batch norm keeps its statistics");
  return m;
}

}  // namespace ocrforge
