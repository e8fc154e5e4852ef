#include "ocrforge/train/export/onnx_emitter.h"

#include <cstring>

#include "ocrforge/core/error.h"

namespace ocrforge {

OnnxAttribute onnx_int(int64_t v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Int;
  a.i = v;
  return a;
}
OnnxAttribute onnx_ints(std::vector<int64_t> v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Ints;
  a.ints = std::move(v);
  return a;
}
OnnxAttribute onnx_float(float v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Float;
  a.f = v;
  return a;
}
OnnxAttribute onnx_string(std::string v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::String;
  a.s = std::move(v);
  return a;
}

OnnxEmitter::OnnxEmitter() { g_.opset = kExportOpset; }

std::string OnnxEmitter::fresh(const std::string& hint) {
  const std::string base = hint.empty() ? "v" : hint;
  const int n = used_[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

std::string OnnxEmitter::input(const std::string& name, const std::vector<int64_t>& shape) {
  used_[name]++;
  g_.inputs.push_back(name);
  g_.io_shapes[name] = shape;
  return name;
}

void OnnxEmitter::output(const std::string& value, const std::string& name, const std::vector<int64_t>& shape) {
  std::string out = value;
  if (value != name) {
    OnnxNode n;
    n.op = "Identity";
    n.inputs = {value};
    n.outputs = {name};
    g_.nodes.push_back(n);
    out = name;
  }
  g_.outputs.push_back(out);
  g_.io_shapes[out] = shape;
}

std::string OnnxEmitter::constant(const std::string& name, const torch::Tensor& value) {
  const torch::Tensor v = value.detach().to(torch::kCPU).contiguous();
  OnnxTensor t;
  if (v.scalar_type() == torch::kFloat32) {
    t.type = OnnxType::Float;
  } else if (v.scalar_type() == torch::kInt64) {
    t.type = OnnxType::Int64;
  } else {
    throw Error("ONNX export: constant '" + name + "' has a type other than float32 / int64");
  }
  t.dims.assign(v.sizes().begin(), v.sizes().end());
  t.data.resize(static_cast<size_t>(v.numel()) * v.element_size());
  if (!t.data.empty()) std::memcpy(t.data.data(), v.data_ptr(), t.data.size());
  const std::string used = fresh(name);
  g_.constants[used] = std::move(t);
  return used;
}

std::string OnnxEmitter::ints(const std::vector<int64_t>& values) {
  return constant("const_ints", torch::tensor(values, torch::kInt64));
}

std::string OnnxEmitter::scalar(float value) { return constant("const_scalar", torch::scalar_tensor(value, torch::kFloat32)); }

std::string OnnxEmitter::index(int64_t value) { return constant("const_index", torch::scalar_tensor(value, torch::kInt64)); }

std::string OnnxEmitter::node(const std::string& op, const std::vector<std::string>& inputs,
                              std::map<std::string, OnnxAttribute> attrs, const std::string& hint) {
  OnnxNode n;
  n.op = op;
  n.inputs = inputs;
  n.outputs = {fresh(hint.empty() ? op : hint)};
  n.name = n.outputs[0];
  n.attrs = std::move(attrs);
  g_.nodes.push_back(n);
  return g_.nodes.back().outputs[0];
}

namespace {

std::vector<int64_t> two(const torch::ExpandingArray<2>& a) { return {(*a)[0], (*a)[1]}; }

}  // namespace

namespace {

// Batch norm (inference form) as a per-channel scale and shift, in double.
std::pair<torch::Tensor, torch::Tensor> bn_scale_shift(const torch::nn::BatchNorm2dImpl& bn, int64_t channels) {
  const auto& bo = bn.options;
  const torch::Tensor gamma =
      bo.affine() ? bn.weight.detach().to(torch::kFloat64) : torch::ones({channels}, torch::kFloat64);
  const torch::Tensor beta =
      bo.affine() ? bn.bias.detach().to(torch::kFloat64) : torch::zeros({channels}, torch::kFloat64);
  const torch::Tensor scale = gamma / torch::sqrt(bn.running_var.to(torch::kFloat64) + bo.eps());
  return {scale, beta - bn.running_mean.to(torch::kFloat64) * scale};
}

}  // namespace

std::string emit_conv(OnnxEmitter& e, const std::string& x, const torch::nn::Conv2dImpl& conv,
                      const torch::nn::BatchNorm2dImpl* bn, const std::string& name) {
  const auto& o = conv.options;
  if (!c10::get_if<torch::ExpandingArray<2>>(&o.padding()))
    throw Error("ONNX export: convolution '" + name + "' uses 'same' / 'valid' padding, which the exporter does not write");
  if (!c10::get_if<torch::enumtype::kZeros>(&o.padding_mode()))
    throw Error("ONNX export: convolution '" + name + "' pads with other than zeros");
  torch::NoGradGuard no_grad;
  // Folding in double: the folded model must match the trained one to 1e-4.
  torch::Tensor w = conv.weight.detach().to(torch::kFloat64).contiguous();
  torch::Tensor b = conv.bias.defined() ? conv.bias.detach().to(torch::kFloat64)
                                        : torch::zeros({w.size(0)}, torch::kFloat64);
  if (bn) {
    const auto [scale, shift] = bn_scale_shift(*bn, w.size(0));
    w = w * scale.view({-1, 1, 1, 1});
    b = b * scale + shift;
  }
  const std::vector<int64_t> pad = two(c10::get<torch::ExpandingArray<2>>(o.padding()));
  const std::string wn = e.constant(name + ".weight", w.to(torch::kFloat32));
  const std::string bnm = e.constant(name + ".bias", b.to(torch::kFloat32));
  return e.node("Conv", {x, wn, bnm},
                {{"kernel_shape", onnx_ints(two(o.kernel_size()))},
                 {"strides", onnx_ints(two(o.stride()))},
                 {"pads", onnx_ints({pad[0], pad[1], pad[0], pad[1]})},
                 {"dilations", onnx_ints(two(o.dilation()))},
                 {"group", onnx_int(o.groups())}},
                name);
}

std::string emit_conv_transpose(OnnxEmitter& e, const std::string& x, const torch::nn::ConvTranspose2dImpl& conv,
                                const torch::nn::BatchNorm2dImpl* bn, const std::string& name) {
  const auto& o = conv.options;
  if (!c10::get_if<torch::ExpandingArray<2>>(&o.padding()))
    throw Error("ONNX export: transposed convolution '" + name + "' has a padding the exporter does not write");
  if (o.groups() != 1)
    throw Error("ONNX export: transposed convolution '" + name + "' is grouped, which the exporter does not write");
  torch::NoGradGuard no_grad;
  // Weight [in, out, kh, kw]: the output channels are dimension 1.
  torch::Tensor w = conv.weight.detach().to(torch::kFloat64).contiguous();
  torch::Tensor b = conv.bias.defined() ? conv.bias.detach().to(torch::kFloat64)
                                        : torch::zeros({w.size(1)}, torch::kFloat64);
  if (bn) {
    const auto [scale, shift] = bn_scale_shift(*bn, w.size(1));
    w = w * scale.view({1, -1, 1, 1});
    b = b * scale + shift;
  }
  const std::vector<int64_t> pad = two(c10::get<torch::ExpandingArray<2>>(o.padding()));
  const std::string wn = e.constant(name + ".weight", w.to(torch::kFloat32));
  const std::string bnm = e.constant(name + ".bias", b.to(torch::kFloat32));
  return e.node("ConvTranspose", {x, wn, bnm},
                {{"kernel_shape", onnx_ints(two(o.kernel_size()))},
                 {"strides", onnx_ints(two(o.stride()))},
                 {"pads", onnx_ints({pad[0], pad[1], pad[0], pad[1]})},
                 {"output_padding", onnx_ints(two(o.output_padding()))},
                 {"dilations", onnx_ints(two(o.dilation()))}},
                name);
}

std::string emit_upsample_nearest(OnnxEmitter& e, const std::string& x, int64_t factor, const std::string& hint) {
  const float f = static_cast<float>(factor);
  const std::string scales = e.constant("const_scales", torch::tensor({1.0f, 1.0f, f, f}));
  // roi is unused by asymmetric coordinates: left out (the empty input name).
  return e.node("Resize", {x, "", scales},
                {{"mode", onnx_string("nearest")},
                 {"coordinate_transformation_mode", onnx_string("asymmetric")},
                 {"nearest_mode", onnx_string("floor")}},
                hint);
}

std::string emit_linear(OnnxEmitter& e, const std::string& x, const torch::nn::LinearImpl& fc, const std::string& name) {
  const std::string w = e.constant(name + ".weight", fc.weight.detach().t().contiguous());  // [in, out] for MatMul
  std::string y = e.node("MatMul", {x, w}, {}, name + ".matmul");
  if (fc.bias.defined()) y = e.node("Add", {y, e.constant(name + ".bias", fc.bias.detach())}, {}, name);
  return y;
}

std::string emit_layer_norm(OnnxEmitter& e, const std::string& x, const torch::nn::LayerNormImpl& ln,
                            const std::string& name) {
  const auto& o = ln.options;
  if (o.normalized_shape().size() != 1)
    throw Error("ONNX export: layer norm '" + name + "' normalises over more than the last axis");
  const int64_t c = o.normalized_shape()[0];
  const std::string scale = e.constant(name + ".weight", o.elementwise_affine() ? ln.weight.detach() : torch::ones({c}));
  const std::string bias = e.constant(name + ".bias", o.elementwise_affine() ? ln.bias.detach() : torch::zeros({c}));
  return e.node("LayerNormalization", {x, scale, bias},
                {{"axis", onnx_int(-1)}, {"epsilon", onnx_float(static_cast<float>(o.eps()))}}, name);
}

std::string emit_lstm(OnnxEmitter& e, const std::string& x, const torch::nn::LSTMImpl& lstm, const std::string& name) {
  const auto& o = lstm.options;
  if (o.proj_size() > 0) throw Error("ONNX export: LSTM '" + name + "' has a projection, which ONNX's LSTM lacks");
  if (!o.bias()) throw Error("ONNX export: LSTM '" + name + "' without biases is not supported");
  const int64_t h = o.hidden_size(), dirs = o.bidirectional() ? 2 : 1;
  // LibTorch's gates are [i, f, g, o]; ONNX's are [i, o, f, c].
  const auto reorder = [h](const torch::Tensor& t) {
    const auto g = t.detach().split(h, 0);
    return torch::cat({g[0], g[3], g[1], g[2]}, 0);
  };
  const auto params = lstm.named_parameters();
  std::string seq = o.batch_first() ? e.node("Transpose", {x}, {{"perm", onnx_ints({1, 0, 2})}}, name + ".time_major") : x;
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    std::vector<torch::Tensor> w, r, b;
    for (int64_t d = 0; d < dirs; ++d) {
      const std::string sfx = "_l" + std::to_string(layer) + (d ? "_reverse" : "");
      w.push_back(reorder(params["weight_ih" + sfx]));
      r.push_back(reorder(params["weight_hh" + sfx]));
      b.push_back(torch::cat({reorder(params["bias_ih" + sfx]), reorder(params["bias_hh" + sfx])}, 0));
    }
    const std::string ln = name + ".l" + std::to_string(layer);
    const std::string y = e.node("LSTM",
                                 {seq, e.constant(ln + ".W", torch::stack(w)), e.constant(ln + ".R", torch::stack(r)),
                                  e.constant(ln + ".B", torch::stack(b))},
                                 {{"hidden_size", onnx_int(h)},
                                  {"direction", onnx_string(dirs == 2 ? "bidirectional" : "forward")}},
                                 ln);
    // Y: T x dirs x N x h -> T x N x (dirs * h), the next layer's input.
    const std::string t = e.node("Transpose", {y}, {{"perm", onnx_ints({0, 2, 1, 3})}}, ln + ".t");
    seq = e.node("Reshape", {t, e.ints({0, 0, -1})}, {}, ln + ".out");
  }
  return o.batch_first() ? e.node("Transpose", {seq}, {{"perm", onnx_ints({1, 0, 2})}}, name) : seq;
}

std::string emit_swish(OnnxEmitter& e, const std::string& x) {
  return e.node("Mul", {x, e.node("Sigmoid", {x})}, {}, "swish");
}

std::string emit_activation(OnnxEmitter& e, const std::string& x, const std::string& act) {
  if (act.empty()) return x;
  if (act == "relu") return e.node("Relu", {x});
  if (act == "hardswish") return e.node("HardSwish", {x});
  throw Error("ONNX export: activation '" + act + "' is not known to the exporter");
}

}  // namespace ocrforge
