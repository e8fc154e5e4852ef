// ONNX operators on ATen (onnx_ops.h). Each op reads its attributes with the
// defaults of the ONNX spec; anything a PP-OCR export never produces (auto_pad,
// asymmetric pads on pooling, linear Resize, ...) is an error naming the node
// rather than a silently different computation.
#include "ocrforge/train/onnx/onnx_ops.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

using Tensors = std::vector<torch::Tensor>;
using Op = std::function<Tensors(const OnnxNode&, const Tensors&)>;

[[noreturn]] void fail(const OnnxNode& n, const std::string& what) { throw Error("ONNX node " + n.label() + ": " + what); }

const OnnxAttribute* attr(const OnnxNode& n, const std::string& key) {
  const auto it = n.attrs.find(key);
  return it == n.attrs.end() ? nullptr : &it->second;
}
int64_t attr_int(const OnnxNode& n, const std::string& key, int64_t def) {
  const auto* a = attr(n, key);
  return a ? a->i : def;
}
float attr_float(const OnnxNode& n, const std::string& key, float def) {
  const auto* a = attr(n, key);
  return a ? a->f : def;
}
std::string attr_string(const OnnxNode& n, const std::string& key, const std::string& def) {
  const auto* a = attr(n, key);
  return a ? a->s : def;
}
std::vector<int64_t> attr_ints(const OnnxNode& n, const std::string& key, std::vector<int64_t> def) {
  const auto* a = attr(n, key);
  return a ? a->ints : def;
}

const torch::Tensor& in(const OnnxNode& n, const Tensors& x, size_t i) {
  if (i >= x.size() || !x[i].defined()) fail(n, "input " + std::to_string(i) + " is missing");
  return x[i];
}
bool has_in(const Tensors& x, size_t i) { return i < x.size() && x[i].defined() && x[i].numel() > 0; }

std::vector<int64_t> int_values(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kCPU, torch::kInt64).contiguous().reshape({-1});
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

int64_t norm_axis(const OnnxNode& n, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) fail(n, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

// Conv / pooling pads [b1, b2, e1, e2] -> symmetric padding, or an error.
std::vector<int64_t> symmetric_pads(const OnnxNode& n, size_t spatial) {
  if (attr_string(n, "auto_pad", "NOTSET") != "NOTSET") fail(n, "auto_pad is not supported; export with explicit pads");
  const std::vector<int64_t> pads = attr_ints(n, "pads", std::vector<int64_t>(2 * spatial, 0));
  if (pads.size() != 2 * spatial) fail(n, "pads must have " + std::to_string(2 * spatial) + " values");
  for (size_t i = 0; i < spatial; ++i)
    if (pads[i] != pads[i + spatial]) fail(n, "asymmetric pads are not supported");
  return std::vector<int64_t>(pads.begin(), pads.begin() + static_cast<long>(spatial));
}

Tensors conv(const OnnxNode& n, const Tensors& x) {
  const auto& w = in(n, x, 1);
  const size_t sp = static_cast<size_t>(w.dim() - 2);
  const auto pads = symmetric_pads(n, sp);
  const auto strides = attr_ints(n, "strides", std::vector<int64_t>(sp, 1));
  const auto dil = attr_ints(n, "dilations", std::vector<int64_t>(sp, 1));
  const torch::Tensor b = has_in(x, 2) ? x[2] : torch::Tensor();
  if (sp != 2) fail(n, "only 2-D convolution is supported");
  return {torch::conv2d(in(n, x, 0), w, b, strides, pads, dil, attr_int(n, "group", 1))};
}

Tensors conv_transpose(const OnnxNode& n, const Tensors& x) {
  const auto& w = in(n, x, 1);
  if (w.dim() != 4) fail(n, "only 2-D transposed convolution is supported");
  if (attr(n, "output_shape")) fail(n, "output_shape is not supported; export with pads / output_padding");
  const auto pads = symmetric_pads(n, 2);
  const torch::Tensor b = has_in(x, 2) ? x[2] : torch::Tensor();
  return {torch::conv_transpose2d(in(n, x, 0), w, b, attr_ints(n, "strides", {1, 1}), pads,
                                  attr_ints(n, "output_padding", {0, 0}), attr_int(n, "group", 1),
                                  attr_ints(n, "dilations", {1, 1}))};
}

// Inference-form batch norm: the running statistics are inputs 3 and 4.
Tensors batch_norm(const OnnxNode& n, const Tensors& x) {
  if (n.outputs.size() > 1) fail(n, "training-mode outputs (running mean / var) are not supported");
  return {torch::batch_norm(in(n, x, 0), in(n, x, 1), in(n, x, 2), in(n, x, 3), in(n, x, 4), /*training*/ false,
                            /*momentum*/ 0.0, attr_float(n, "epsilon", 1e-5f), /*cudnn*/ true)};
}

Tensors clip(const OnnxNode& n, const Tensors& x) {
  // opset < 11: min / max attributes; later: optional inputs 1 and 2.
  c10::optional<c10::Scalar> lo, hi;
  if (const auto* a = attr(n, "min")) lo = a->f;
  if (const auto* a = attr(n, "max")) hi = a->f;
  if (has_in(x, 1)) lo = x[1].item<double>();
  if (has_in(x, 2)) hi = x[2].item<double>();
  return {torch::clamp(in(n, x, 0), lo, hi)};
}

Tensors pool(const OnnxNode& n, const Tensors& x, bool max) {
  const auto k = attr_ints(n, "kernel_shape", {});
  if (k.size() != 2) fail(n, "only 2-D pooling is supported");
  const auto pads = symmetric_pads(n, 2);
  const auto strides = attr_ints(n, "strides", {1, 1});
  const bool ceil_mode = attr_int(n, "ceil_mode", 0) != 0;
  if (max) {
    if (n.outputs.size() > 1) fail(n, "the Indices output is not supported");
    return {torch::max_pool2d(in(n, x, 0), k, strides, pads, attr_ints(n, "dilations", {1, 1}), ceil_mode)};
  }
  return {torch::avg_pool2d(in(n, x, 0), k, strides, pads, ceil_mode, attr_int(n, "count_include_pad", 0) != 0)};
}

// Nearest-neighbour Resize with PaddlePaddle's (and PyTorch's) rule:
// asymmetric coordinates, floor. Output size from `sizes` or from `scales`.
Tensors resize(const OnnxNode& n, const Tensors& x) {
  const auto& t = in(n, x, 0);
  if (attr_string(n, "mode", "nearest") != "nearest") fail(n, "only mode 'nearest' is supported");
  const std::string ctm = attr_string(n, "coordinate_transformation_mode", "half_pixel");
  const std::string nm = attr_string(n, "nearest_mode", "round_prefer_floor");
  if (ctm != "asymmetric" || nm != "floor")
    fail(n, "nearest Resize needs coordinate_transformation_mode 'asymmetric' and nearest_mode 'floor' (got '" + ctm +
                "', '" + nm + "')");
  if (t.dim() != 4) fail(n, "only 4-D (NCHW) inputs are supported");
  std::vector<int64_t> out_hw;
  const size_t scales_at = n.op == "Upsample" ? 1 : 2;  // Resize-10 also has scales at input 1
  if (n.op == "Resize" && has_in(x, 3)) {
    const auto sizes = int_values(x[3]);
    out_hw = {sizes.at(2), sizes.at(3)};
  } else {
    const torch::Tensor& s = has_in(x, scales_at) ? x[scales_at] : in(n, x, 1);
    const torch::Tensor sc = s.to(torch::kCPU, torch::kFloat64).contiguous();
    if (sc.numel() != 4 || sc[0].item<double>() != 1.0 || sc[1].item<double>() != 1.0)
      fail(n, "scales must be [1, 1, sh, sw]");
    out_hw = {static_cast<int64_t>(std::floor(t.size(2) * sc[2].item<double>())),
              static_cast<int64_t>(std::floor(t.size(3) * sc[3].item<double>()))};
  }
  return {torch::upsample_nearest2d(t, out_hw)};
}

Tensors shape(const OnnxNode&, const Tensors& x) {
  const auto s = x.at(0).sizes();
  return {torch::tensor(std::vector<int64_t>(s.begin(), s.end()), torch::kInt64)};
}

Tensors cast(const OnnxNode& n, const Tensors& x) {
  static const std::map<int64_t, torch::Dtype> types = {
      {1, torch::kFloat32}, {6, torch::kInt32}, {7, torch::kInt64}, {9, torch::kBool}, {11, torch::kFloat64}};
  const auto it = types.find(attr_int(n, "to", 1));
  if (it == types.end()) fail(n, "cast to ONNX type " + std::to_string(attr_int(n, "to", 1)) + " is not supported");
  return {in(n, x, 0).to(it->second)};
}

Tensors slice(const OnnxNode& n, const Tensors& x) {
  const auto& t = in(n, x, 0);
  std::vector<int64_t> starts, ends, axes, steps;
  if (attr(n, "starts")) {  // opset < 10
    starts = attr_ints(n, "starts", {});
    ends = attr_ints(n, "ends", {});
    axes = attr_ints(n, "axes", {});
  } else {
    starts = int_values(in(n, x, 1));
    ends = int_values(in(n, x, 2));
    if (has_in(x, 3)) axes = int_values(x[3]);
    if (has_in(x, 4)) steps = int_values(x[4]);
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    fail(n, "starts, ends, axes and steps must have the same length");
  torch::Tensor out = t;
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t axis = norm_axis(n, axes[i], t.dim()), len = t.size(axis);
    if (steps[i] != 1) fail(n, "steps other than 1 are not supported");
    const auto clampi = [len](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + len : v, 0, len); };
    const int64_t s = clampi(starts[i]), e = std::max(s, clampi(ends[i]));
    out = out.slice(axis, s, e);
  }
  return {out};
}

Tensors reshape(const OnnxNode& n, const Tensors& x) {
  const auto& t = in(n, x, 0);
  std::vector<int64_t> shape = int_values(in(n, x, 1));
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 0) {  // 0 copies the input's dimension (allowzero = 0)
      if (static_cast<int64_t>(i) >= t.dim()) fail(n, "shape has 0 at an axis the input does not have");
      shape[i] = t.size(static_cast<int64_t>(i));
    }
  return {t.reshape(shape)};
}

// Softmax before opset 13 flattens to 2-D at `axis` (default 1) and normalises rows.
Tensors softmax(const OnnxNode& n, const Tensors& x) {
  const auto& t = in(n, x, 0);
  const int64_t axis = norm_axis(n, attr_int(n, "axis", 1), t.dim());
  if (axis == t.dim() - 1) return {torch::softmax(t, -1)};
  const auto sizes = t.sizes().vec();
  return {torch::softmax(t.flatten(axis), -1).reshape(sizes)};
}

Tensors reduce_mean(const OnnxNode& n, const Tensors& x) {
  const auto& t = in(n, x, 0);
  std::vector<int64_t> axes = attr_ints(n, "axes", {});
  if (axes.empty())
    for (int64_t i = 0; i < t.dim(); ++i) axes.push_back(i);
  for (auto& a : axes) a = norm_axis(n, a, t.dim());
  return {t.mean(axes, attr_int(n, "keepdims", 1) != 0)};
}

Tensors squeeze(const OnnxNode& n, const Tensors& x) {
  torch::Tensor t = in(n, x, 0);
  std::vector<int64_t> axes = attr(n, "axes") ? attr_ints(n, "axes", {}) : (has_in(x, 1) ? int_values(x[1]) : std::vector<int64_t>{});
  if (axes.empty()) return {t.squeeze()};
  for (auto& a : axes) a = norm_axis(n, a, t.dim());
  std::sort(axes.rbegin(), axes.rend());
  for (int64_t a : axes) {
    if (t.size(a) != 1) fail(n, "cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(t.size(a)));
    t = t.squeeze(a);
  }
  return {t};
}

Tensors concat(const OnnxNode& n, const Tensors& x) {
  std::vector<torch::Tensor> parts;
  for (size_t i = 0; i < x.size(); ++i) parts.push_back(in(n, x, i));
  // Shape arithmetic mixes int32 (Cast) and int64 constants; ONNX requires one type, be lenient.
  const auto type = parts[0].scalar_type();
  for (auto& p : parts) p = p.to(type);
  return {torch::cat(parts, norm_axis(n, attr_int(n, "axis", 0), parts[0].dim()))};
}

Tensors binary(const OnnxNode& n, const Tensors& x, torch::Tensor (*f)(const torch::Tensor&, const torch::Tensor&)) {
  if (attr(n, "broadcast") && attr_int(n, "broadcast", 0) != 0 && attr(n, "axis"))
    fail(n, "legacy broadcast with axis is not supported");
  return {f(in(n, x, 0), in(n, x, 1))};
}

torch::Tensor add_(const torch::Tensor& a, const torch::Tensor& b) { return a + b; }
torch::Tensor sub_(const torch::Tensor& a, const torch::Tensor& b) { return a - b; }
torch::Tensor mul_(const torch::Tensor& a, const torch::Tensor& b) { return a * b; }
torch::Tensor div_(const torch::Tensor& a, const torch::Tensor& b) { return a / b; }
torch::Tensor pow_(const torch::Tensor& a, const torch::Tensor& b) { return torch::pow(a, b); }
torch::Tensor matmul_(const torch::Tensor& a, const torch::Tensor& b) { return torch::matmul(a, b); }

const std::map<std::string, Op>& ops() {
  static const std::map<std::string, Op> table = {
      {"Add", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, add_); }},
      {"Sub", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, sub_); }},
      {"Mul", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, mul_); }},
      {"Div", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, div_); }},
      {"Pow", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, pow_); }},
      {"MatMul", [](const OnnxNode& n, const Tensors& x) { return binary(n, x, matmul_); }},
      {"Sqrt", [](const OnnxNode& n, const Tensors& x) { return Tensors{torch::sqrt(in(n, x, 0))}; }},
      {"Relu", [](const OnnxNode& n, const Tensors& x) { return Tensors{torch::relu(in(n, x, 0))}; }},
      {"Sigmoid", [](const OnnxNode& n, const Tensors& x) { return Tensors{torch::sigmoid(in(n, x, 0))}; }},
      {"HardSigmoid",
       [](const OnnxNode& n, const Tensors& x) {
         return Tensors{torch::clamp(in(n, x, 0) * attr_float(n, "alpha", 0.2f) + attr_float(n, "beta", 0.5f), 0.0, 1.0)};
       }},
      {"Clip", clip},
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"BatchNormalization", batch_norm},
      {"GlobalAveragePool",
       [](const OnnxNode& n, const Tensors& x) { return Tensors{torch::adaptive_avg_pool2d(in(n, x, 0), {1, 1})}; }},
      {"AveragePool", [](const OnnxNode& n, const Tensors& x) { return pool(n, x, false); }},
      {"MaxPool", [](const OnnxNode& n, const Tensors& x) { return pool(n, x, true); }},
      {"Resize", resize},
      {"Upsample", resize},
      {"Concat", concat},
      {"Shape", shape},
      {"Cast", cast},
      {"Slice", slice},
      {"Reshape", reshape},
      {"Transpose",
       [](const OnnxNode& n, const Tensors& x) {
         const auto& t = in(n, x, 0);
         std::vector<int64_t> perm = attr_ints(n, "perm", {});
         if (perm.empty())
           for (int64_t i = t.dim() - 1; i >= 0; --i) perm.push_back(i);
         return Tensors{t.permute(perm)};
       }},
      {"Softmax", softmax},
      {"ReduceMean", reduce_mean},
      {"Squeeze", squeeze},
      {"Identity", [](const OnnxNode& n, const Tensors& x) { return Tensors{in(n, x, 0)}; }},
  };
  return table;
}

}  // namespace

const std::vector<std::string>& supported_onnx_ops() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& kv : ops()) v.push_back(kv.first);
    return v;
  }();
  return names;
}

void require_supported_onnx_op(const OnnxNode& node) {
  if (ops().count(node.op)) return;
  std::string known;
  for (const auto& k : supported_onnx_ops()) known += (known.empty() ? "" : ", ") + k;
  throw Error("ONNX node " + node.label() + ": operator '" + node.op + "' is not supported (supported: " + known + ")");
}

std::vector<torch::Tensor> run_onnx_op(const OnnxNode& node, const std::vector<torch::Tensor>& inputs) {
  require_supported_onnx_op(node);
  return ops().at(node.op)(node, inputs);
}

}  // namespace ocrforge
