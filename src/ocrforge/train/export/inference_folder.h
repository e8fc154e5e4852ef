// One inference folder: DIR/inference.onnx and DIR/inference.yml, the unit
// every export writes (a single model, or each model of a distillation).
#pragma once
#include <string>

#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"

namespace ocrforge {

class Config;
class Charset;

struct InferenceFolder {
  std::string onnx_path, yml_path;
};

// Creates `dir` (Error naming Global.save_inference_dir when it cannot),
// writes the graph, checks it with the ONNX checker, then writes the yml from
// `config` (`charset`: the recognizer's classes; null for det / cls).
// A native network passes its emitted `graph`; a fine-tuned ONNX model passes
// `onnx`, written back with its trained weights.
InferenceFolder write_inference_folder(const std::string& dir, const OnnxGraph& graph, const Config& config,
                                       const Charset* charset);
InferenceFolder write_inference_folder(const std::string& dir, const OnnxGraphModuleImpl& onnx, const Config& config,
                                       const Charset* charset);

}  // namespace ocrforge
