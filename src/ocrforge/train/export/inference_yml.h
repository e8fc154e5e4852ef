// OUT/inference.yml beside OUT/inference.onnx: what a runtime needs besides
// the graph, so an export folder is self-contained (PaddleOCR / PaddleX
// write the same file next to their inference models):
//   Global:      model_name, model_type, algorithm, exported_by, onnx_opset
//   Input:       name and shape (-1 = dynamic)
//   PreProcess:  transform_ops = the Eval transforms that prepare the image
//                (label encoders, map makers and KeepKeys left out)
//   PostProcess: the config's PostProcess, plus for rec the dictionary itself
//                (character_dict, use_space_char) and for cls the label_list
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

class Config;
class Charset;
struct OnnxGraph;

struct InferenceIo {
  std::string input_name, output_name;
  std::vector<int64_t> input_shape, output_shape;
  int64_t opset = 0;
};

// The graph's first input and output, their declared shapes and its opset.
InferenceIo inference_io_of(const OnnxGraph& graph);

// The file's text. `charset`: the recognizer's classes (null for det / cls).
std::string inference_yml_text(const Config& config, const InferenceIo& io, const Charset* charset);

// Writes it to `path` atomically.
void write_inference_yml(const std::string& path, const Config& config, const InferenceIo& io, const Charset* charset);

}  // namespace ocrforge
