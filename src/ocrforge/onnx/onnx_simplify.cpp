// The exact fp32 graph simplification (onnx_simplify.h).
#include "ocrforge/onnx/onnx_simplify.h"

#include <cmath>
#include <filesystem>
#include <limits>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_graph_edit.h"
#include "ocrforge/onnx/onnx_model_file.h"
#include "ocrforge/onnx/onnx_opset_upgrade.h"

namespace ocrforge {

namespace {

using namespace onnx_edit;

int64_t numel(const onnx::TensorProto& t) {
  int64_t n = 1;
  for (auto d : t.dims()) n *= d;
  return n;
}

void set_floats(onnx::TensorProto* t, const std::vector<float>& v) {
  t->clear_float_data();
  t->set_raw_data(raw_of(v));
}

bool has_subgraph(const onnx::GraphProto& g) {
  for (const auto& n : g.node())
    for (const auto& a : n.attribute())
      if (a.type() == onnx::AttributeProto::GRAPH || a.type() == onnx::AttributeProto::GRAPHS) return true;
  return false;
}

class Simplifier {
 public:
  explicit Simplifier(onnx::ModelProto* model)
      : g_(model->mutable_graph()), view_(model), opset_(onnx_opset::default_opset(*model)) {
    for (const auto& vi : g_->input()) graph_inputs_.insert(vi.name());
    for (const auto& vi : g_->output()) graph_outputs_.insert(vi.name());
    removed_.assign(static_cast<size_t>(g_->node_size()), false);
  }

  void run(SimplifyReport* r) {
    fold_conv_affines(r);
    compact();
    fuse_hardswishes(r);
    compact();
    fold_input_affines(r);
    compact();
    remove_unused_constants(g_);
  }

 private:
  // A constant the graph cannot change: not also a graph input (old IRs let
  // a caller override an initializer listed among the inputs).
  const onnx::TensorProto* fixed(const std::string& name) const {
    if (graph_inputs_.count(name)) return nullptr;
    const auto* t = view_.constant(name);
    return t && t->data_type() == onnx::TensorProto::FLOAT ? t : nullptr;
  }

  // A float constant only `reader` reads: safe to change in place.
  onnx::TensorProto* own(const std::string& name, size_t rank) {
    const auto* t = fixed(name);
    if (!t || static_cast<size_t>(t->dims_size()) != rank || view_.consumers(name).size() != 1) return nullptr;
    return view_.mutable_constant(name);
  }

  // The values of constant `name` for `channels` output channels of a 4-D
  // tensor: one value broadcast to all (numel 1, rank <= 4), or one per
  // channel (shape [C, 1, 1] or [1, C, 1, 1]). False for anything else.
  bool channel_values(const std::string& name, int64_t channels, std::vector<float>* v) const {
    const auto* t = fixed(name);
    if (!t || t->dims_size() > 4) return false;
    const std::vector<float> values = float_values(*t);
    if (static_cast<int64_t>(values.size()) != numel(*t)) return false;
    if (values.size() == 1) {
      v->assign(static_cast<size_t>(channels), values[0]);
      return true;
    }
    const auto& d = t->dims();
    const bool c11 = d.size() == 3 && d[0] == channels && d[1] == 1 && d[2] == 1;
    const bool one_c11 = d.size() == 4 && d[0] == 1 && d[1] == channels && d[2] == 1 && d[3] == 1;
    if (!c11 && !one_c11) return false;
    *v = values;
    return true;
  }

  // One value of rank 0 or 1, so that broadcasting it keeps the other
  // operand's shape (a rewrite may then drop the op).
  bool scalar(const std::string& name, float* value) const {
    const auto* t = fixed(name);
    if (!t || t->dims_size() > 1 || numel(*t) != 1) return false;
    const std::vector<float> v = float_values(*t);
    if (v.size() != 1) return false;
    *value = v[0];
    return true;
  }

  bool is(const onnx::NodeProto& n, const char* op) const {
    return n.op_type() == op && default_domain(n);
  }

  // The node that alone reads `value` (-1 when several, none, or a graph output).
  int only_reader(const std::string& value) const {
    if (graph_outputs_.count(value)) return -1;
    const auto& c = view_.consumers(value);
    if (c.size() != 1 || removed_[static_cast<size_t>(c[0])]) return -1;
    return c[0];
  }

  // For a binary Mul / Add reading `value`: its other input.
  static std::string other_input(const onnx::NodeProto& n, const std::string& value) {
    if (n.input_size() != 2) return "";
    if (n.input(0) == value && n.input(1) != value) return n.input(1);
    if (n.input(1) == value && n.input(0) != value) return n.input(0);
    return "";
  }

  // A 2-D Conv with a weight (and bias, when it has one) that only it reads.
  struct ConvParams {
    onnx::TensorProto* weight = nullptr;
    onnx::TensorProto* bias = nullptr;  // null: no bias input yet
    int64_t out_channels = 0;
  };
  bool own_conv_params(const onnx::NodeProto& n, ConvParams* p) {
    if (!is(n, "Conv") || n.input_size() < 2) return false;
    p->weight = own(n.input(1), 4);
    if (!p->weight) return false;
    p->out_channels = p->weight->dims(0);
    p->bias = nullptr;
    if (n.input_size() > 2 && !n.input(2).empty()) {
      p->bias = own(n.input(2), 1);
      if (!p->bias || numel(*p->bias) != p->out_channels) return false;
    }
    return static_cast<int64_t>(float_values(*p->weight).size()) == numel(*p->weight);
  }

  // The bias values of `n` (zeros when it has none); writes them back with set_bias.
  std::vector<float> bias_of(const ConvParams& p) const {
    return p.bias ? float_values(*p.bias) : std::vector<float>(static_cast<size_t>(p.out_channels), 0.f);
  }
  void set_bias(onnx::NodeProto* n, ConvParams* p, const std::vector<float>& b) {
    if (p->bias) {
      set_floats(p->bias, b);
      return;
    }
    p->bias = add_float_constant(n->output(0) + "_bias", {p->out_channels}, b);
    while (n->input_size() < 3) n->add_input("");
    n->set_input(2, p->bias->name());
  }

  // A new float initializer named after `hint` (made unique).
  onnx::TensorProto* add_float_constant(const std::string& hint, const std::vector<int64_t>& dims,
                                        const std::vector<float>& values) {
    auto* t = g_->add_initializer();
    t->set_name(view_.unique(hint));
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims) t->add_dims(d);
    set_floats(t, values);
    return t;
  }

  // Rule 1: Conv -> Mul / Add constants => the Conv's weight and bias.
  void fold_conv_affines(SimplifyReport* r) {
    for (int i = 0; i < g_->node_size(); ++i) {
      onnx::NodeProto* conv = g_->mutable_node(i);
      ConvParams p;
      if (removed_[static_cast<size_t>(i)] || !own_conv_params(*conv, &p)) continue;
      const auto channels = static_cast<size_t>(p.out_channels);
      std::vector<float> scale(channels, 1.f), shift(channels, 0.f);  // y = conv * scale + shift
      std::string out = conv->output(0);
      std::vector<int> chain;
      for (int j; (j = only_reader(out)) >= 0;) {
        const auto& m = g_->node(j);
        const bool mul = is(m, "Mul");
        if (!mul && !is(m, "Add")) break;
        std::vector<float> v;
        if (!channel_values(other_input(m, out), p.out_channels, &v)) break;
        for (size_t c = 0; c < channels; ++c) {
          if (mul) {
            scale[c] *= v[c];
            shift[c] *= v[c];
          } else {
            shift[c] += v[c];
          }
        }
        chain.push_back(j);
        out = m.output(0);
      }
      if (chain.empty()) continue;
      std::vector<float> w = float_values(*p.weight);
      const size_t per = w.size() / channels;
      for (size_t c = 0; c < channels; ++c)
        for (size_t k = 0; k < per; ++k) w[c * per + k] *= scale[c];
      set_floats(p.weight, w);
      std::vector<float> b = bias_of(p);
      for (size_t c = 0; c < channels; ++c) b[c] = b[c] * scale[c] + shift[c];
      set_bias(conv, &p, b);
      conv->set_output(0, out);
      for (int j : chain) removed_[static_cast<size_t>(j)] = true;
      r->conv_affines += static_cast<int>(chain.size());
    }
  }

  bool clip_is_relu6(const onnx::NodeProto& clip) const {
    float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
    if (opset_ >= 11) {
      if (clip.input_size() != 3 || !scalar(clip.input(1), &lo) || !scalar(clip.input(2), &hi)) return false;
    } else {
      lo = float_attr(clip, "min", lo);
      hi = float_attr(clip, "max", hi);
    }
    return lo == 0.f && hi == 6.f;
  }

  // Rule 2: x -> Add(3) -> Clip(0, 6) -> Mul(x, .) -> Div(6) => HardSigmoid + Mul.
  void fuse_hardswishes(SimplifyReport* r) {
    for (int i = 0; i < g_->node_size(); ++i) {
      const auto& add = g_->node(i);
      if (removed_[static_cast<size_t>(i)] || !is(add, "Add") || add.input_size() != 2) continue;
      float three = 0;
      int xi = -1;
      if (scalar(add.input(1), &three)) xi = 0;
      else if (scalar(add.input(0), &three)) xi = 1;
      if (xi < 0 || three != 3.f || fixed(add.input(xi))) continue;
      const std::string x = add.input(xi);
      const int ci = only_reader(add.output(0));
      if (ci < 0 || !is(g_->node(ci), "Clip") || g_->node(ci).input(0) != add.output(0) ||
          !clip_is_relu6(g_->node(ci)))
        continue;
      const std::string clipped = g_->node(ci).output(0);
      const int mi = only_reader(clipped);
      if (mi < 0 || !is(g_->node(mi), "Mul") || other_input(g_->node(mi), clipped) != x) continue;
      const int di = only_reader(g_->node(mi).output(0));
      if (di < 0) continue;
      const auto& div = g_->node(di);
      float k = 0;
      const bool by_six = is(div, "Div") && div.input_size() == 2 && div.input(0) == g_->node(mi).output(0) &&
                          scalar(div.input(1), &k) && k == 6.f;
      const bool times_sixth = is(div, "Mul") && scalar(other_input(div, g_->node(mi).output(0)), &k) &&
                               std::fabs(k - 1.f / 6.f) <= 1e-7f;
      if (!by_six && !times_sixth) continue;
      onnx::NodeProto* hs = g_->mutable_node(ci);
      hs->set_op_type("HardSigmoid");
      hs->clear_input();
      hs->add_input(x);
      hs->clear_attribute();
      add_float_attr(hs, "alpha", 1.f / 6.f);
      add_float_attr(hs, "beta", 0.5f);
      g_->mutable_node(mi)->set_output(0, div.output(0));
      removed_[static_cast<size_t>(i)] = removed_[static_cast<size_t>(di)] = true;
      ++r->hardswishes;
    }
  }

  static bool unpadded(const onnx::NodeProto& conv) {
    const auto* pad = find_attr(conv, "auto_pad");
    if (pad && pad->s() != "NOTSET" && pad->s() != "VALID") return false;
    if (const auto* pads = find_attr(conv, "pads"))
      for (auto v : pads->ints())
        if (v != 0) return false;
    return true;
  }

  // Rule 3: Mul(s) [-> Add(a)] or Add(a) -> unpadded Convs => their weights
  // and biases; in front of padded Convs only the scale moves (see below).
  void fold_input_affines(SimplifyReport* r) {
    for (int i = 0; i < g_->node_size(); ++i) {
      const auto& first = g_->node(i);
      if (removed_[static_cast<size_t>(i)]) continue;
      const bool mul = is(first, "Mul");
      if (!mul && !is(first, "Add")) continue;
      float s = 1, a = 0, c = 0;
      std::string x;
      for (const int k : {0, 1})
        if (first.input_size() == 2 && scalar(first.input(1 - k), &c) && !fixed(first.input(k))) x = first.input(k);
      if (x.empty()) continue;
      (mul ? s : a) = c;
      std::vector<int> chain{i};
      std::string value = first.output(0);
      if (mul) {
        const int ai = only_reader(value);
        if (ai >= 0 && is(g_->node(ai), "Add") && scalar(other_input(g_->node(ai), value), &a)) {
          chain.push_back(ai);
          value = g_->node(ai).output(0);
        }
      }
      if (graph_outputs_.count(value) || view_.consumers(value).empty()) continue;
      std::vector<std::pair<int, ConvParams>> convs;
      bool all_convs = true, all_unpadded = true;
      for (int ci : view_.consumers(value)) {
        ConvParams p;
        const auto& n = g_->node(ci);
        if (removed_[static_cast<size_t>(ci)] || !own_conv_params(n, &p) || n.input(0) != value || n.input(1) == value) {
          all_convs = false;
          break;
        }
        all_unpadded = all_unpadded && unpadded(n);
        convs.emplace_back(ci, p);
      }
      if (!all_convs) continue;
      if (all_unpadded) {
        for (auto& [ci, p] : convs) fold_affine_into_conv(ci, &p, s, a, x);
        for (int j : chain) removed_[static_cast<size_t>(j)] = true;
        r->input_affines += static_cast<int>(chain.size());
      } else if (mul && s != 0.f && std::isfinite(a / s)) {
        // Padded convs: s * x + a = s * (x + a / s), and the zero padding of
        // s * (...) is s times the zero padding of (...), so the scale moves
        // into the weights and only the shift stays, x + a / s (rule 3b).
        for (auto& [ci, p] : convs) fold_affine_into_conv(ci, &p, s, 0.f, chain.size() == 1 ? x : value);
        if (chain.size() == 2) shift_as_depthwise_conv(chain[1], x, a / s, convs.front().first, convs.front().second, r);
        removed_[static_cast<size_t>(i)] = true;
        ++r->input_affines;
      }
    }
  }

  // Rule 3b: the shift that must stay in front of padded convs, x + a, as a
  // 1x1 depthwise Conv (weight 1, bias a): 1 * x + a is x + a exactly, but a
  // Conv keeps ORT's blocked NCHWc layout, where an Add of a constant makes
  // ORT reorder the tensor to NCHW and back around it (two more passes over
  // the map; 15 % of the recogniser's time in its profile). `next_index` is
  // one of the convs that read it, `next` its parameters (for the channels).
  void shift_as_depthwise_conv(int add_index, const std::string& x, float a, int next_index, const ConvParams& next,
                               SimplifyReport* r) {
    onnx::NodeProto* add = g_->mutable_node(add_index);
    const int64_t channels = next.weight->dims(1) * int_attr(g_->node(next_index), "group", 1);
    const std::string base = add->output(0);
    add->clear_input();
    add->add_input(x);
    if (channels <= 0) {  // cannot tell the channels: keep it an Add
      add->add_input(add_float_constant(base + "_shift", {}, {a})->name());
      return;
    }
    const auto n = static_cast<size_t>(channels);
    add->set_op_type("Conv");
    add->add_input(add_float_constant(base + "_identity", {channels, 1, 1, 1}, std::vector<float>(n, 1.f))->name());
    add->add_input(add_float_constant(base + "_shift", {channels}, std::vector<float>(n, a))->name());
    add->clear_attribute();
    add_int_attr(add, "group", channels);
    add_ints_attr(add, "kernel_shape", {1, 1});
    ++r->layout_shifts;
  }

  // Conv `ci` reading `input` instead of (s * input + a): W * s, b + a * sum(W).
  void fold_affine_into_conv(int ci, ConvParams* p, float s, float a, const std::string& input) {
    const auto channels = static_cast<size_t>(p->out_channels);
    std::vector<float> w = float_values(*p->weight);
    std::vector<float> b = bias_of(*p);
    const size_t per = w.size() / channels;
    for (size_t o = 0; o < channels; ++o) {
      double sum = 0;  // the weights' sum, in double: it multiplies a over every input
      for (size_t k = 0; k < per; ++k) sum += w[o * per + k];
      b[o] = static_cast<float>(b[o] + static_cast<double>(a) * sum);
      for (size_t k = 0; k < per; ++k) w[o * per + k] *= s;
    }
    set_floats(p->weight, w);
    onnx::NodeProto* n = g_->mutable_node(ci);
    set_bias(n, p, b);
    n->set_input(0, input);
  }

  // Drops the removed nodes and indexes the graph again for the next rule.
  void compact() {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int i = 0; i < g_->node_size(); ++i)
      if (!removed_[static_cast<size_t>(i)]) kept.Add()->Swap(g_->mutable_node(i));
    g_->mutable_node()->Swap(&kept);
    view_.index();
    removed_.assign(static_cast<size_t>(g_->node_size()), false);
  }

  onnx::GraphProto* g_;
  GraphView view_;
  int64_t opset_;
  std::set<std::string> graph_inputs_, graph_outputs_;
  std::vector<bool> removed_;
};

// Every rule on `model`, in place.
SimplifyReport simplify_model(onnx::ModelProto* model) {
  SimplifyReport r;
  r.nodes_before = r.nodes_after = model->graph().node_size();
  // Values read inside If / Loop bodies are invisible to the consumer index:
  // such a graph is left as it is rather than risk removing what a body reads.
  if (!has_subgraph(model->graph())) {
    Simplifier(model).run(&r);
    r.nodes_after = model->graph().node_size();
  }
  return r;
}

}  // namespace

size_t simplify_onnx_bytes_into(const void* data, size_t size, const std::string& what,
                                const std::function<void*(size_t)>& allocate, SimplifyReport* report) {
  onnx::ModelProto model;
  if (size > static_cast<size_t>(std::numeric_limits<int>::max()) || !model.ParseFromArray(data, static_cast<int>(size)))
    throw Error("'" + what + "' is not an ONNX model (protobuf parse failed)");
  const SimplifyReport r = simplify_model(&model);
  if (report) *report = r;
  if (r.changes() == 0) return 0;
  const size_t n = model.ByteSizeLong();
  void* out = allocate(n);
  if (!out || !model.SerializeToArray(out, static_cast<int>(n)))
    throw Error("cannot serialise the simplified form of '" + what + "'");
  return n;
}

std::string simplify_onnx_bytes(const std::string& model_bytes, const std::string& what, SimplifyReport* report) {
  std::string out;
  const size_t n = simplify_onnx_bytes_into(model_bytes.data(), model_bytes.size(), what, [&out](size_t size) {
    out.resize(size);
    return static_cast<void*>(&out[0]);
  }, report);
  return n == 0 ? model_bytes : out;
}

SimplifyReport simplify_onnx_model(const std::string& src, const std::string& dst) {
  onnx::ModelProto model = onnx_file::load(src);
  const SimplifyReport r = simplify_model(&model);
  std::string out;
  if (!model.SerializeToString(&out)) throw Error("cannot serialise the simplified form of '" + src + "'");
  std::error_code ec;
  const std::filesystem::path target(dst);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  write_file_atomic(dst, out);
  return r;
}

}  // namespace ocrforge
