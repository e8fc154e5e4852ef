// INT8 quantisation of Conv / MatMul / Gemm weights (onnx_quantize.h).
#include "ocrforge/onnx/onnx_quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_graph_edit.h"
#include "ocrforge/onnx/onnx_model_file.h"
#include "ocrforge/onnx/onnx_opset_upgrade.h"

namespace ocrforge {

namespace {

using namespace onnx_edit;

const char* kMsDomain = "com.microsoft";

// Conv / ConvTranspose / MatMul / Gemm with a constant weight: the layers
// that bound the "input" and "output" regions of the rules.
bool weighted(const GraphView& v, const onnx::NodeProto& n) {
  if (!default_domain(n) || n.input_size() < 2) return false;
  const std::string& op = n.op_type();
  if (op == "Conv" || op == "ConvTranspose" || op == "MatMul" || op == "Gemm") return v.constant(n.input(1)) != nullptr;
  return false;
}

// Weighted nodes reached from the graph inputs (forward) or from the graph
// outputs (backward) through weight-free nodes only.
std::set<int> boundary_layers(const onnx::ModelProto& model, const GraphView& v, bool from_inputs) {
  std::set<int> found, seen;
  std::deque<int> todo;
  const auto& g = model.graph();
  auto push_value = [&](const std::string& value) {
    if (from_inputs) {
      for (int c : v.consumers(value)) todo.push_back(c);
    } else if (v.producer(value) >= 0) {
      todo.push_back(v.producer(value));
    }
  };
  if (from_inputs) {
    for (const auto& vi : g.input())
      if (!v.constant(vi.name())) push_value(vi.name());
  } else {
    for (const auto& vi : g.output()) push_value(vi.name());
  }
  while (!todo.empty()) {
    const int i = todo.front();
    todo.pop_front();
    if (!seen.insert(i).second) continue;
    const auto& n = g.node(i);
    if (weighted(v, n)) {
      found.insert(i);
      continue;
    }
    if (from_inputs) {
      for (const auto& out : n.output()) push_value(out);
    } else {
      for (const auto& in : n.input())
        if (!in.empty() && !v.constant(in)) push_value(in);
    }
  }
  return found;
}

// Symmetric per output channel: channel c of `w` (channels x per values)
// scaled by max|w_c| / qmax, so 0 stays exact; stored as int8 (zero point 0)
// or as uint8 shifted by 128 (zero point 128, one value for every channel as
// ORT's QLinearConv and ConvInteger require).
struct QuantizedWeight {
  int32_t type = onnx::TensorProto::INT8;  // INT8 or UINT8
  std::string raw;                         // the stored values, `type`
  std::vector<float> scale;
  int zero_point = 0;
};

int weight_qmax(Int8Weights w) { return w == Int8Weights::Signed7 ? 64 : 127; }

QuantizedWeight quantize_per_channel(const std::vector<float>& w, int64_t channels, bool channel_is_last,
                                     Int8Weights encoding) {
  QuantizedWeight out;
  const bool unsigned8 = encoding == Int8Weights::Unsigned8;
  out.type = unsigned8 ? onnx::TensorProto::UINT8 : onnx::TensorProto::INT8;
  out.zero_point = unsigned8 ? 128 : 0;
  const float qmax = static_cast<float>(weight_qmax(encoding));
  const int64_t per = static_cast<int64_t>(w.size()) / channels;
  std::vector<int8_t> q(w.size());
  out.scale.assign(static_cast<size_t>(channels), 0.f);
  auto at = [&](int64_t c, int64_t j) -> size_t {
    return static_cast<size_t>(channel_is_last ? j * channels + c : c * per + j);
  };
  for (int64_t c = 0; c < channels; ++c) {
    float amax = 0;
    for (int64_t j = 0; j < per; ++j) amax = std::max(amax, std::fabs(w[at(c, j)]));
    const float s = amax > 0 ? amax / qmax : 1.f;
    out.scale[static_cast<size_t>(c)] = s;
    for (int64_t j = 0; j < per; ++j) {
      const float r = std::nearbyint(w[at(c, j)] / s);
      q[at(c, j)] = static_cast<int8_t>(std::clamp(r, -qmax, qmax));
    }
  }
  if (unsigned8) {
    std::vector<uint8_t> u(q.size());
    for (size_t i = 0; i < q.size(); ++i) u[i] = static_cast<uint8_t>(q[i] + 128);
    out.raw = raw_of(u);
  } else {
    out.raw = raw_of(q);
  }
  return out;
}

// The zero points of `w`: `count` copies (or one scalar when count == 0).
std::string zero_points_raw(const QuantizedWeight& w, size_t count) {
  const size_t n = std::max<size_t>(count, 1);
  if (w.type == onnx::TensorProto::UINT8) return raw_of(std::vector<uint8_t>(n, static_cast<uint8_t>(w.zero_point)));
  return raw_of(std::vector<int8_t>(n, static_cast<int8_t>(w.zero_point)));
}

// uint8 asymmetric from a measured range (widened to hold 0, as ORT's MinMax
// calibration does, so zero padding is exact).
struct Uint8Params {
  float scale = 1;
  uint8_t zero_point = 0;
};

Uint8Params uint8_params(ActivationRange r) {
  const float lo = std::min(0.f, r.min), hi = std::max(0.f, r.max);
  Uint8Params p;
  p.scale = hi > lo ? (hi - lo) / 255.f : 1.f;
  p.zero_point = static_cast<uint8_t>(std::clamp(std::nearbyint(-lo / p.scale), 0.f, 255.f));
  return p;
}

class Quantizer {
 public:
  Quantizer(onnx::ModelProto* model, const QuantizeParams& p, QuantizeReport* report)
      : model_(model), g_(model->mutable_graph()), view_(model), p_(p), report_(report) {}

  // Which nodes the rules quantise; `why` collects the kept ones.
  std::vector<int> plan(bool convs_allowed, const std::string& conv_block) {
    const std::set<int> inputs = p_.keep_input_layers ? boundary_layers(*model_, view_, true) : std::set<int>{};
    const std::set<int> outputs = p_.keep_output_layers ? boundary_layers(*model_, view_, false) : std::set<int>{};
    std::vector<int> chosen;
    for (int i = 0; i < g_->node_size(); ++i) {
      const auto& n = g_->node(i);
      if (!weighted(view_, n)) continue;
      const std::string& op = n.op_type();
      auto keep = [&](const std::string& why) { report_->kept_fp32.push_back(node_label(n) + ": " + why); };
      if (p_.keep_fp32.count(n.name()) || p_.keep_fp32.count(n.output(0)) || p_.keep_fp32.count(n.input(1))) {
        keep("named in keep_fp32");
        continue;
      }
      if (op == "ConvTranspose") {
        keep("ConvTranspose is not quantised");
        continue;
      }
      const bool is_conv = op == "Conv";
      if (is_conv && p_.conv == QuantizeParams::ConvMode::Keep) {
        keep("convs are not quantised (ConvMode::Keep)");
        continue;
      }
      if (!is_conv && !p_.matmul) {
        keep("MatMul / Gemm are not quantised (matmul = false)");
        continue;
      }
      if (inputs.count(i)) {
        keep("reads the graph input (first layer)");
        continue;
      }
      if (outputs.count(i)) {
        keep("feeds a graph output (last layer)");
        continue;
      }
      if (is_conv) {
        if (!convs_allowed) {
          keep(conv_block);
          continue;
        }
        if (!float_constant(view_, n.input(1), 4)) {
          keep("weight is not a 4-D float constant");
          continue;
        }
        if (n.input_size() > 2 && !n.input(2).empty() && !float_constant(view_, n.input(2), 1)) {
          keep("bias is not a constant");
          continue;
        }
        if (p_.keep_grouped_convs && int_attr(n, "group", 1) != 1) {
          keep("grouped (depthwise) conv");
          continue;
        }
        if (p_.keep_pooled_convs) {
          const int prod = view_.producer(n.input(0));
          if (prod >= 0 && g_->node(prod).op_type() == "GlobalAveragePool") {
            keep("1x1-spatial input (squeeze-and-excite branch)");
            continue;
          }
        }
        if (leading_kept_ < p_.keep_leading_convs) {
          ++leading_kept_;
          keep("one of the first " + std::to_string(p_.keep_leading_convs) + " quantisable convs");
          continue;
        }
      } else if (op == "MatMul") {
        if (!float_constant(view_, n.input(1), 2)) {
          keep("weight is not a 2-D float constant");
          continue;
        }
      } else {  // Gemm
        const bool simple = float_constant(view_, n.input(1), 2) && int_attr(n, "transA", 0) == 0 &&
                            float_attr(n, "alpha", 1.f) == 1.f &&
                            (n.input_size() < 3 || n.input(2).empty() ||
                             (float_attr(n, "beta", 1.f) == 1.f && float_constant(view_, n.input(2), 1)));
        if (!simple) {
          keep("Gemm with transA, alpha / beta != 1 or a non-constant / non-1-D bias");
          continue;
        }
      }
      chosen.push_back(i);
    }
    return chosen;
  }

  // Rewrites the chosen nodes; the new nodes take each original's place.
  void rewrite(const std::vector<int>& chosen) {
    std::map<int, std::vector<onnx::NodeProto>> replacement;
    for (int i : chosen) {
      const onnx::NodeProto n = g_->node(i);
      std::vector<onnx::NodeProto> out;
      if (n.op_type() == "Conv") {
        if (p_.conv == QuantizeParams::ConvMode::Static)
          static_conv(n, &out);
        else
          dynamic_conv(n, &out);
        report_->convs_quantized++;
      } else {
        matmul(n, &out);
        report_->matmuls_quantized++;
      }
      replacement[i] = std::move(out);
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    // Shared quantised inputs are emitted before their first consumer.
    for (int i = 0; i < g_->node_size(); ++i) {
      const auto it = replacement.find(i);
      if (it == replacement.end()) {
        *nodes.Add() = g_->node(i);
        continue;
      }
      for (auto& r : it->second) *nodes.Add() = std::move(r);
    }
    g_->mutable_node()->Swap(&nodes);
    remove_unused_constants();
  }

 private:
  std::string add_init(const std::string& base, int32_t type, const std::vector<int64_t>& dims, const std::string& raw) {
    const std::string name = view_.unique(base);
    auto* t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (int64_t d : dims) t->add_dims(d);
    t->set_raw_data(raw);
    return name;
  }

  static onnx::NodeProto make(const std::string& op, const std::vector<std::string>& in,
                              const std::vector<std::string>& out, const std::string& name,
                              const std::string& domain = "") {
    onnx::NodeProto n;
    n.set_op_type(op);
    n.set_name(name);
    if (!domain.empty()) n.set_domain(domain);
    for (const auto& s : in) n.add_input(s);
    for (const auto& s : out) n.add_output(s);
    return n;
  }

  static void copy_conv_attrs(const onnx::NodeProto& from, onnx::NodeProto* to) {
    for (const auto& a : from.attribute())
      if (a.name() == "auto_pad" || a.name() == "dilations" || a.name() == "group" || a.name() == "kernel_shape" ||
          a.name() == "pads" || a.name() == "strides")
        *to->add_attribute() = a;
  }

  std::vector<int64_t> dims_of(const std::string& name) const {
    const auto* t = view_.constant(name);
    return {t->dims().begin(), t->dims().end()};
  }

  ActivationRange range_of(const std::string& tensor, const onnx::NodeProto& n) const {
    const auto it = p_.ranges.find(tensor);
    if (it == p_.ranges.end())
      throw Error("static int8 quantisation of " + node_label(n) + " needs the calibrated range of '" + tensor +
                  "', which was not measured");
    return it->second;
  }

  // x -> QuantizeLinear (shared by every quantised conv reading x).
  struct QInput {
    std::string q, scale, zero_point;
  };
  QInput quantize_input_static(const std::string& x, const onnx::NodeProto& n, std::vector<onnx::NodeProto>* out) {
    if (const auto it = static_inputs_.find(x); it != static_inputs_.end()) return it->second;
    const Uint8Params qp = uint8_params(range_of(x, n));
    QInput in;
    in.scale = add_init(x + "_scale", onnx::TensorProto::FLOAT, {}, raw_of(std::vector<float>{qp.scale}));
    in.zero_point = add_init(x + "_zero_point", onnx::TensorProto::UINT8, {}, raw_of(std::vector<uint8_t>{qp.zero_point}));
    in.q = view_.unique(x + "_quantized");
    out->push_back(make("QuantizeLinear", {x, in.scale, in.zero_point}, {in.q}, in.q + "_node"));
    static_inputs_[x] = in;
    return in;
  }

  QInput quantize_input_dynamic(const std::string& x, std::vector<onnx::NodeProto>* out) {
    if (const auto it = dynamic_inputs_.find(x); it != dynamic_inputs_.end()) return it->second;
    QInput in;
    in.q = view_.unique(x + "_quantized");
    in.scale = view_.unique(x + "_scale");
    in.zero_point = view_.unique(x + "_zero_point");
    out->push_back(make("DynamicQuantizeLinear", {x}, {in.q, in.scale, in.zero_point}, in.q + "_node"));
    dynamic_inputs_[x] = in;
    return in;
  }

  void static_conv(const onnx::NodeProto& n, std::vector<onnx::NodeProto>* out) {
    const std::vector<int64_t> wd = dims_of(n.input(1));
    const int64_t k = wd[0];
    const QuantizedWeight w = quantize_per_channel(float_values(*view_.constant(n.input(1))), k, false, p_.weights);
    const QInput x = quantize_input_static(n.input(0), n, out);
    const Uint8Params xp = uint8_params(range_of(n.input(0), n));
    const Uint8Params yp = uint8_params(range_of(n.output(0), n));
    const std::string base = n.name().empty() ? n.output(0) : n.name();
    const std::string wq = add_init(n.input(1) + "_int8", w.type, wd, w.raw);
    const std::string ws = add_init(n.input(1) + "_scale", onnx::TensorProto::FLOAT, {k}, raw_of(w.scale));
    const std::string wz = add_init(n.input(1) + "_zero_point", w.type, {k}, zero_points_raw(w, static_cast<size_t>(k)));
    const std::string ys = add_init(n.output(0) + "_scale", onnx::TensorProto::FLOAT, {}, raw_of(std::vector<float>{yp.scale}));
    const std::string yz = add_init(n.output(0) + "_zero_point", onnx::TensorProto::UINT8, {},
                                    raw_of(std::vector<uint8_t>{yp.zero_point}));
    std::vector<std::string> inputs = {x.q, x.scale, x.zero_point, wq, ws, wz, ys, yz};
    if (n.input_size() > 2 && !n.input(2).empty()) {
      // int32 bias in the accumulator's scale (input scale x weight scale).
      const std::vector<float> b = float_values(*view_.constant(n.input(2)));
      std::vector<int32_t> bq(b.size());
      for (size_t c = 0; c < b.size(); ++c) {
        const double s = static_cast<double>(xp.scale) * w.scale[c];
        bq[c] = static_cast<int32_t>(std::clamp(std::nearbyint(b[c] / s), -2147483647.0, 2147483647.0));
      }
      inputs.push_back(add_init(n.input(2) + "_int32", onnx::TensorProto::INT32, {k}, raw_of(bq)));
    }
    const std::string yq = view_.unique(n.output(0) + "_quantized");
    onnx::NodeProto conv = make("QLinearConv", inputs, {yq}, base + "_int8");
    copy_conv_attrs(n, &conv);
    out->push_back(conv);
    out->push_back(make("DequantizeLinear", {yq, ys, yz}, {n.output(0)}, base + "_dequantize"));
  }

  void dynamic_conv(const onnx::NodeProto& n, std::vector<onnx::NodeProto>* out) {
    const std::vector<int64_t> wd = dims_of(n.input(1));
    const int64_t k = wd[0];
    const QuantizedWeight w = quantize_per_channel(float_values(*view_.constant(n.input(1))), k, false, p_.weights);
    const QInput x = quantize_input_dynamic(n.input(0), out);
    const std::string base = n.name().empty() ? n.output(0) : n.name();
    const std::string wq = add_init(n.input(1) + "_int8", w.type, wd, w.raw);
    // ORT's ConvInteger takes one weight zero point only: symmetric weights
    // share one for every channel, and the per-channel scales apply afterwards.
    const std::string wz = add_init(n.input(1) + "_zero_point", w.type, {}, zero_points_raw(w, 0));
    const std::string ws = add_init(n.input(1) + "_scale", onnx::TensorProto::FLOAT, {1, k, 1, 1}, raw_of(w.scale));
    const std::string acc = view_.unique(n.output(0) + "_int32");
    onnx::NodeProto conv = make("ConvInteger", {x.q, wq, x.zero_point, wz}, {acc}, base + "_int8");
    copy_conv_attrs(n, &conv);
    out->push_back(conv);
    const std::string f = view_.unique(n.output(0) + "_float");
    onnx::NodeProto cast = make("Cast", {acc}, {f}, f + "_node");
    auto* to = cast.add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(onnx::TensorProto::FLOAT);
    out->push_back(cast);
    const std::string scale = view_.unique(n.output(0) + "_scale");
    out->push_back(make("Mul", {x.scale, ws}, {scale}, scale + "_node"));
    const bool has_bias = n.input_size() > 2 && !n.input(2).empty();
    const std::string scaled = has_bias ? view_.unique(n.output(0) + "_unbiased") : n.output(0);
    out->push_back(make("Mul", {f, scale}, {scaled}, scaled + "_node"));
    if (has_bias) {
      const std::vector<float> b = float_values(*view_.constant(n.input(2)));
      const std::string b4 = add_init(n.input(2) + "_nchw", onnx::TensorProto::FLOAT, {1, k, 1, 1}, raw_of(b));
      out->push_back(make("Add", {scaled, b4}, {n.output(0)}, base + "_bias"));
    }
  }

  // MatMul x W / Gemm x W^T (+ C): DynamicQuantizeMatMul with W [K, N] int8
  // per column (output feature), bias folded in for Gemm.
  void matmul(const onnx::NodeProto& n, std::vector<onnx::NodeProto>* out) {
    std::vector<int64_t> wd = dims_of(n.input(1));
    std::vector<float> w = float_values(*view_.constant(n.input(1)));
    if (n.op_type() == "Gemm" && int_attr(n, "transB", 0) != 0) {  // stored [N, K]: make it [K, N]
      std::vector<float> t(w.size());
      for (int64_t r = 0; r < wd[0]; ++r)
        for (int64_t c = 0; c < wd[1]; ++c) t[static_cast<size_t>(c * wd[0] + r)] = w[static_cast<size_t>(r * wd[1] + c)];
      w.swap(t);
      std::swap(wd[0], wd[1]);
    }
    const int64_t cols = wd[1];
    const QuantizedWeight q = quantize_per_channel(w, cols, true, p_.weights);
    const std::string base = n.name().empty() ? n.output(0) : n.name();
    const std::string wq = add_init(n.input(1) + "_int8", q.type, wd, q.raw);
    const std::string ws = add_init(n.input(1) + "_scale", onnx::TensorProto::FLOAT, {cols}, raw_of(q.scale));
    const std::string wz = add_init(n.input(1) + "_zero_point", q.type, {cols}, zero_points_raw(q, static_cast<size_t>(cols)));
    std::vector<std::string> inputs = {n.input(0), wq, ws, wz};
    if (n.op_type() == "Gemm" && n.input_size() > 2 && !n.input(2).empty()) inputs.push_back(n.input(2));
    out->push_back(make("DynamicQuantizeMatMul", inputs, {n.output(0)}, base + "_int8", kMsDomain));
  }

  // The float weights that were replaced.
  void remove_unused_constants() { onnx_edit::remove_unused_constants(g_); }

  onnx::ModelProto* model_;
  onnx::GraphProto* g_;
  GraphView view_;
  const QuantizeParams& p_;
  QuantizeReport* report_;
  std::map<std::string, QInput> static_inputs_, dynamic_inputs_;
  int leading_kept_ = 0;
};

bool needs_opset_11(const QuantizeParams& p) { return p.conv != QuantizeParams::ConvMode::Keep; }

// Loads `src` and decides what is quantised; with `upgrade`, raises the opset
// where the chosen conv mode needs it.
struct Planned {
  onnx::ModelProto model;
  std::vector<int> chosen;
};

Planned plan_model(const std::string& src, const QuantizeParams& params, QuantizeReport* report, bool upgrade) {
  Planned p;
  p.model = onnx_file::load(src);
  report->opset_before = report->opset_after = onnx_opset::default_opset(p.model);
  bool convs_allowed = true;
  std::string why;
  if (needs_opset_11(params) && report->opset_before < 11) {
    onnx::ModelProto copy = p.model;
    convs_allowed = onnx_opset::upgrade_to_11(&copy, &why);
    if (convs_allowed && upgrade) {
      p.model = std::move(copy);
      report->opset_after = 11;
    }
  }
  Quantizer q(&p.model, params, report);
  p.chosen = q.plan(convs_allowed, "the model's opset " + std::to_string(report->opset_before) +
                                       " cannot be raised to 11 for int8 convs: " + why);
  return p;
}

}  // namespace

const char* int8_weights_name(Int8Weights w) {
  switch (w) {
    case Int8Weights::Signed8: return "s8";
    case Int8Weights::Signed7: return "s7";
    case Int8Weights::Unsigned8: return "u8";
  }
  return "?";
}

Int8Weights int8_weights_from_name(const std::string& name) {
  for (Int8Weights w : {Int8Weights::Signed8, Int8Weights::Signed7, Int8Weights::Unsigned8})
    if (name == int8_weights_name(w)) return w;
  throw Error("unknown int8 weight scheme '" + name + "': use s8 (int8), s7 (int8 in [-64, 64]) or u8 (uint8)");
}

std::vector<std::string> calibration_tensors(const std::string& src, const QuantizeParams& params) {
  if (params.conv != QuantizeParams::ConvMode::Static) return {};
  QuantizeReport report;
  Planned p = plan_model(src, params, &report, false);
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (int i : p.chosen) {
    const auto& n = p.model.graph().node(i);
    if (n.op_type() != "Conv") continue;
    for (const std::string& t : {n.input(0), n.output(0)})
      if (seen.insert(t).second) names.push_back(t);
  }
  return names;
}

void write_calibration_model(const std::string& src, const std::string& dst, const std::vector<std::string>& tensors) {
  onnx::ModelProto model = onnx_file::load(src);
  std::set<std::string> outputs;
  for (const auto& o : model.graph().output()) outputs.insert(o.name());
  for (const auto& t : tensors) {
    if (outputs.count(t)) continue;
    auto* vi = model.mutable_graph()->add_output();
    vi->set_name(t);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw Error("cannot serialise the calibration model for '" + dst + "'");
  write_file_atomic(dst, bytes, false);
}

QuantizeReport quantize_onnx_model(const std::string& src, const std::string& dst, const QuantizeParams& params,
                                   const std::map<std::string, std::string>& metadata) {
  QuantizeReport report;
  Planned p = plan_model(src, params, &report, true);
  std::error_code ec;
  report.bytes_before = static_cast<size_t>(std::filesystem::file_size(src, ec));
  Quantizer q(&p.model, params, &report);
  q.rewrite(p.chosen);
  if (report.matmuls_quantized > 0) {
    bool has_ms = false;
    for (const auto& op : p.model.opset_import()) has_ms |= op.domain() == kMsDomain;
    if (!has_ms) {
      auto* op = p.model.add_opset_import();
      op->set_domain(kMsDomain);
      op->set_version(1);
    }
  }
  for (const auto& [k, v] : metadata) {
    auto* m = p.model.add_metadata_props();
    m->set_key(k);
    m->set_value(v);
  }
  std::string bytes;
  if (!p.model.SerializeToString(&bytes)) throw Error("cannot serialise the int8 model for '" + dst + "'");
  report.bytes_after = bytes.size();
  const std::filesystem::path target(dst);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  write_file_atomic(dst, bytes);
  return report;
}

std::map<std::string, int> onnx_op_counts(const std::string& path) {
  const onnx::ModelProto model = onnx_file::load(path);
  std::map<std::string, int> counts;
  for (const auto& n : model.graph().node()) counts[(default_domain(n) ? "" : n.domain() + ".") + n.op_type()]++;
  return counts;
}

IntegerInitializer onnx_integer_initializer(const std::string& path, const std::string& name) {
  const onnx::ModelProto model = onnx_file::load(path);
  for (const auto& t : model.graph().initializer()) {
    if (t.name() != name) continue;
    const bool u8 = t.data_type() == onnx::TensorProto::UINT8, s8 = t.data_type() == onnx::TensorProto::INT8;
    if (!u8 && !s8) break;
    IntegerInitializer out;
    out.type = u8 ? "uint8" : "int8";
    if (!t.raw_data().empty()) {
      for (unsigned char c : t.raw_data()) out.values.push_back(u8 ? static_cast<int>(c) : static_cast<int>(static_cast<int8_t>(c)));
    } else {
      for (int32_t v : t.int32_data()) out.values.push_back(v);
    }
    return out;
  }
  throw Error("'" + path + "' has no int8 / uint8 initializer '" + name + "'");
}

}  // namespace ocrforge
