// An ONNX inference graph as a trainable LibTorch module: the graph's float
// weights (Constant nodes or initializers) become parameters, everything else
// (batch-norm running statistics, shape constants, scalars) buffers, and
// forward() runs the nodes with ATen ops under autograd (onnx_ops.h). This is
// how ocrforge fine-tunes the models people deploy without rebuilding them
// as native networks.
//
// Which constants are weights: float tensors with more than one element whose
// every use is a weight-like operand (Conv / ConvTranspose weight and bias,
// BatchNormalization scale and bias, MatMul, or an operand of an element-wise
// Add / Sub / Mul / Div: biases and LayerNorm's gamma / beta). Batch-norm
// mean / variance, Resize scales, Reshape shapes and scalars stay fixed.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge {

class OnnxGraphModuleImpl : public torch::nn::Module {
 public:
  // Reads `path` and checks every node's op before anything runs: an
  // unsupported op is an Error naming the node, the op and the file.
  explicit OnnxGraphModuleImpl(const std::string& path);

  // Runs the graph on `x` and returns the value named `output` (default: the
  // graph's output). Values no later node needs are released as soon as
  // their last reader has run.
  torch::Tensor forward(const torch::Tensor& x, const std::string& output = "");

  // The input of the graph's final Softmax / Sigmoid (the logits a training
  // loss wants), or "" when the output node is neither.
  std::string pre_activation_output() const;
  const std::string& graph_output() const { return graph_.outputs.at(0); }
  const std::string& path() const { return graph_.path; }
  // ONNX value name -> the module's parameter / buffer name ('.' is not
  // allowed in LibTorch names and becomes '_'); for export back to ONNX.
  const std::map<std::string, std::string>& value_to_tensor_name() const { return names_; }

  // Batch norm normalises with its running statistics (eval-mode) by
  // default, also in training: fine-tuning batches are small and the shipped
  // statistics come from the original, much larger training set. With
  // `update` true, BatchNormalization nodes normalise with batch statistics
  // in training mode and update the running ones (ONNX's `momentum`).
  void set_update_bn_stats(bool update) { update_bn_stats_ = update; }
  bool update_bn_stats() const { return update_bn_stats_; }

  // The current value of every constant the graph reads (parameters and
  // buffers), in the element type the file stored it in, by ONNX value name.
  std::map<std::string, OnnxTensor> constant_values() const;
  // Writes the original file with the current values (onnx_writer.h:
  // everything but the constants' data stays as it was), atomically.
  void save_onnx(const std::string& dst) const;

 private:
  torch::Tensor constant(const std::string& value) const;

  OnnxGraph graph_;
  std::map<std::string, torch::Tensor> fixed_;   // value name -> parameter or buffer (registered)
  std::map<std::string, std::string> names_;
  std::map<std::string, OnnxType> types_;        // value name -> element type in the file
  bool update_bn_stats_ = false;
  std::vector<std::vector<std::string>> release_after_;  // per node: values last read there
};
TORCH_MODULE(OnnxGraphModule);

}  // namespace ocrforge
