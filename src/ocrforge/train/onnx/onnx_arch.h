// `Architecture: {model_type: rec|det|cls, algorithm: ONNX, onnx_model: PATH,
// freeze: [...], update_bn_stats: false}`: fine-tuning a deployed ONNX model
// (docs/finetune.md). The network is the file's graph, so the native
// Transform / Backbone / Neck / Head sections do not apply.
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/model_type.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"

namespace ocrforge {

struct OnnxArchSpec {
  ModelType model_type = ModelType::Rec;
  std::string onnx_model;            // the deployed model to start from
  std::vector<std::string> freeze;   // parameter-name prefixes kept fixed ("*": all)
  bool update_bn_stats = false;      // see OnnxGraphModuleImpl::set_update_bn_stats
};

// True when Architecture.algorithm is ONNX.
bool is_onnx_architecture(const YAML::Node& architecture);

// Reads and checks the section: UsageError naming the key for an unknown key,
// a native sub-module section, or a missing onnx_model.
OnnxArchSpec onnx_arch_from_yaml(const YAML::Node& architecture);

// What freezing did, for the training log.
struct FreezeReport {
  size_t tensors = 0, frozen_tensors = 0;
  int64_t weights = 0, frozen_weights = 0;
  std::string summary() const;  // "frozen 12 of 300 parameter tensors (1,024 of 10,000 weights)"
};

// Sets requires_grad false on every parameter whose name starts with one of
// `prefixes`. A prefix is matched against the ONNX value name
// ("conv2d_56.w_0") and the module's parameter name ("conv2d_56_w_0"); "*"
// matches all. UsageError naming a prefix that matches nothing (with a few
// parameter names, so the user sees what names look like).
FreezeReport freeze_parameters(OnnxGraphModule& model, const std::vector<std::string>& prefixes);

// What a training task needs of an ONNX architecture.
struct OnnxTaskModel {
  OnnxArchSpec spec;
  OnnxGraphModule graph{nullptr};  // freeze and the batch-norm switch applied
  std::string logits;              // the input of the graph's final Softmax / Sigmoid
  std::string log_line;            // "fine-tuning ONNX model ...: frozen ...; batch norm ..."
};

// Reads the section and loads the model. UsageError when the graph does not
// end in a Softmax / Sigmoid (`kind` names what the task expected, e.g. "a
// CTC recognizer (final Softmax)").
OnnxTaskModel load_onnx_task_model(const YAML::Node& architecture, const std::string& kind);

}  // namespace ocrforge
