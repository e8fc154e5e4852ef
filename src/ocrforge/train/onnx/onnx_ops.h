// The ONNX operators the shipped PP-OCR det / rec / cls models use, as ATen
// calls that autograd differentiates (opset 9 to 12 semantics: attributes
// where those opsets have them, inputs where they moved there).
#pragma once
#include <string>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge {

// The operator names run_onnx_op knows, sorted.
const std::vector<std::string>& supported_onnx_ops();

// Throws Error naming the node, its op and the supported ops when run_onnx_op
// does not know `node.op` (graphs are checked with it before they run).
void require_supported_onnx_op(const OnnxNode& node);

// Runs `node` on `inputs` (one tensor per node input; undefined for an
// omitted optional input) and returns its outputs. Throws Error naming the
// node and its op for an unknown op or an attribute value not supported
// (e.g. a Resize mode other than nearest).
std::vector<torch::Tensor> run_onnx_op(const OnnxNode& node, const std::vector<torch::Tensor>& inputs);

}  // namespace ocrforge
