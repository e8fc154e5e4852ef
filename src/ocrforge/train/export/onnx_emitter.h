// Builds an ONNX graph (onnx/onnx_graph.h, written by onnx_writer.h) from
// LibTorch layers in their inference form, one node at a time. The layer
// helpers here cover the layers every native model is made of (convolution
// with its batch norm folded in, linear, layer norm, LSTM, activations); the
// model emitters (rec_model_onnx.h, ...) put them together per module type.
//
// Opset 17: the first with LayerNormalization, and HardSwish (14) is one
// node too, so the SVTR neck and the MobileNet blocks export as the fused
// operators ONNX Runtime, TensorRT (8.6+) and OpenVINO (2022.3+) optimise,
// instead of chains of elementary ops.
#pragma once
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge {

constexpr int64_t kExportOpset = 17;

OnnxAttribute onnx_int(int64_t v);
OnnxAttribute onnx_ints(std::vector<int64_t> v);
OnnxAttribute onnx_float(float v);
OnnxAttribute onnx_string(std::string v);

class OnnxEmitter {
 public:
  OnnxEmitter();

  // The graph's float input (`shape`: -1 for a dynamic dimension).
  std::string input(const std::string& name, const std::vector<int64_t>& shape);
  // Declares `value` a graph output (renamed `name` through an Identity when they differ).
  void output(const std::string& value, const std::string& name, const std::vector<int64_t>& shape);

  // An initializer called `name` (suffixed when taken) holding `value`
  // (float or int64, copied). Returns the name used.
  std::string constant(const std::string& name, const torch::Tensor& value);
  std::string ints(const std::vector<int64_t>& values);  // 1-D int64 constant
  std::string scalar(float value);                       // 0-D float constant
  std::string index(int64_t value);                      // 0-D int64 constant (Gather)

  // One node with one output; returns the output's name (`hint` makes it readable).
  std::string node(const std::string& op, const std::vector<std::string>& inputs,
                   std::map<std::string, OnnxAttribute> attrs = {}, const std::string& hint = "");

  OnnxGraph& graph() { return g_; }

 private:
  std::string fresh(const std::string& hint);
  OnnxGraph g_;
  std::map<std::string, int> used_;
};

// --- layers (all in eval form) ---------------------------------------------

// Conv2d (+ the BatchNorm2d that follows it, folded into weight and bias with
// its running statistics). Initializers `<name>.weight` / `<name>.bias`.
std::string emit_conv(OnnxEmitter& e, const std::string& x, const torch::nn::Conv2dImpl& conv,
                      const torch::nn::BatchNorm2dImpl* bn, const std::string& name);
// ConvTranspose2d (+ the BatchNorm2d that follows it, folded over the output
// channels, weight dimension 1). Initializers `<name>.weight` / `<name>.bias`.
std::string emit_conv_transpose(OnnxEmitter& e, const std::string& x, const torch::nn::ConvTranspose2dImpl& conv,
                                const torch::nn::BatchNorm2dImpl* bn, const std::string& name);
// Nearest-neighbour upsampling of an NCHW map by an integer factor, as
// LibTorch's interpolate(mode nearest, scale_factor): Resize with
// asymmetric coordinates and floor rounding, output pixel i reads input i / f.
std::string emit_upsample_nearest(OnnxEmitter& e, const std::string& x, int64_t factor, const std::string& hint);
// x @ W^T + b on the last axis (any rank).
std::string emit_linear(OnnxEmitter& e, const std::string& x, const torch::nn::LinearImpl& fc, const std::string& name);
// LayerNormalization over the last axis.
std::string emit_layer_norm(OnnxEmitter& e, const std::string& x, const torch::nn::LayerNormImpl& ln,
                            const std::string& name);
// A batch-first LSTM (any layers, uni- or bidirectional): N x T x C -> N x T x (dirs * hidden).
std::string emit_lstm(OnnxEmitter& e, const std::string& x, const torch::nn::LSTMImpl& lstm, const std::string& name);
// x * sigmoid(x) (PaddleOCR's swish, LibTorch's silu).
std::string emit_swish(OnnxEmitter& e, const std::string& x);
// "relu" | "hardswish" | "" (identity).
std::string emit_activation(OnnxEmitter& e, const std::string& x, const std::string& act);

}  // namespace ocrforge
