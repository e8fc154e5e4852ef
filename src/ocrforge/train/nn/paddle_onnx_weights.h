// Weights of a PaddleOCR inference file exported to ONNX (paddle2onnx), taken
// in the order the graph first reads them, and copied onto a native network's
// parameters listed in the same order. paddle2onnx names constants after
// Paddle's program variables (conv2d_394.w_0), not the layers, so weights
// are matched by position in the graph; every pair must agree in element
// count and in shape up to size-1 axes, or nothing is loaded.
#pragma once
#include <torch/torch.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge {

struct OnnxWeight {
  std::string name;  // the graph's value name
  torch::Tensor value;
};

// Every float constant a node reads, in node order, each once; paddle2onnx's
// own helper constants (names starting "p2o.": shapes, activation
// constants, resize scales) and the values of Cast nodes (shape pieces) are
// not weights and are left out.
std::vector<OnnxWeight> paddle_onnx_weights_in_use_order(const OnnxGraph& graph);

// Copies weights[i] into the parameter or buffer of `model` named names[i];
// names in `transposed` are Linear weights, which Paddle stores [in, out]
// and LibTorch [out, in].
// Error naming `file` (and the first pair that disagrees: both names and
// shapes) when the counts differ, a name is not in the model, or shapes
// disagree. The model is unchanged when anything fails.
void load_weights_in_order(torch::nn::Module& model, const std::vector<std::string>& names,
                           const std::vector<OnnxWeight>& weights, const std::string& file,
                           const std::set<std::string>& transposed = {});

}  // namespace ocrforge
