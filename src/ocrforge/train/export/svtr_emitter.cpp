#include "ocrforge/train/export/svtr_emitter.h"

#include <cmath>

#include "ocrforge/train/export/module_emitters.h"

namespace ocrforge::export_blocks {
namespace {

using torch::nn::Module;

// Multi-head self-attention on N x L x C tokens, masked for the Local mixer.
std::string attention(OnnxEmitter& e, const std::string& x, const SvtrAttentionImpl& m, const std::string& path) {
  const int64_t heads = m.heads(), hd = m.dim() / m.heads();
  std::string qkv = emit_linear(e, x, child<torch::nn::LinearImpl>(m, "qkv", path), path + ".qkv");
  qkv = e.node("Reshape", {qkv, e.ints({0, 0, 3, heads, hd})});
  qkv = e.node("Transpose", {qkv}, {{"perm", onnx_ints({2, 0, 3, 1, 4})}});  // 3, N, heads, L, hd
  const auto part = [&](int64_t i) { return e.node("Gather", {qkv, e.index(i)}, {{"axis", onnx_int(0)}}); };
  const std::string q = e.node("Mul", {part(0), e.scalar(static_cast<float>(m.scale()))});
  const std::string kt = e.node("Transpose", {part(1)}, {{"perm", onnx_ints({0, 1, 3, 2})}});
  std::string scores = e.node("MatMul", {q, kt});
  if (m.mask().defined())
    scores = e.node("Add", {scores, e.constant(path + ".mask", m.mask().to(torch::kCPU, torch::kFloat32))});
  const std::string attn = e.node("Softmax", {scores}, {{"axis", onnx_int(-1)}}, path + ".attn");
  std::string out = e.node("MatMul", {attn, part(2)});                    // N, heads, L, hd
  out = e.node("Transpose", {out}, {{"perm", onnx_ints({0, 2, 1, 3})}});  // N, L, heads, hd
  out = e.node("Reshape", {out, e.ints({0, 0, m.dim()})});
  return emit_linear(e, out, child<torch::nn::LinearImpl>(m, "proj", path), path + ".proj");
}

// N, L, C tokens <-> N, C, h, w map.
std::string to_map(OnnxEmitter& e, const std::string& t, int64_t c, int64_t h, int64_t w) {
  const std::string y = e.node("Transpose", {t}, {{"perm", onnx_ints({0, 2, 1})}});
  return e.node("Reshape", {y, e.ints({0, c, h, w})});
}
std::string to_tokens(OnnxEmitter& e, const std::string& map) {
  const std::string y = e.node("Reshape", {map, e.ints({0, 0, -1})});
  return e.node("Transpose", {y}, {{"perm", onnx_ints({0, 2, 1})}});
}

std::string conv_mixer(OnnxEmitter& e, const std::string& x, const SvtrConvMixerImpl& m, int64_t dim,
                       const std::string& path) {
  const std::string map = to_map(e, x, dim, m.hw().at(0), m.hw().at(1));
  return to_tokens(e, plain_conv(e, map, m, "local_mixer", path));
}

std::string mlp(OnnxEmitter& e, const std::string& x, const SvtrMlpImpl& m, const std::string& path) {
  std::string y = emit_linear(e, x, child<torch::nn::LinearImpl>(m, "fc1", path), path + ".fc1");
  y = emit_svtr_act(e, y, m.act());
  return emit_linear(e, y, child<torch::nn::LinearImpl>(m, "fc2", path), path + ".fc2");
}

std::string sub_sample(OnnxEmitter& e, const std::string& map, const SvtrSubSampleImpl& m, const std::string& path) {
  std::string t;
  if (m.pool()) {
    const auto pool = [&](const char* op, std::map<std::string, OnnxAttribute> extra) {
      std::map<std::string, OnnxAttribute> a{{"kernel_shape", onnx_ints({3, 5})},
                                             {"strides", onnx_ints({2, 1})},
                                             {"pads", onnx_ints({1, 2, 1, 2})}};
      a.insert(extra.begin(), extra.end());
      return e.node(op, {map}, a);
    };
    // Paddle's AvgPool2D is exclusive: the padding is not counted.
    const std::string sum = e.node("Add", {pool("AveragePool", {{"count_include_pad", onnx_int(0)}}), pool("MaxPool", {})});
    t = to_tokens(e, e.node("Mul", {sum, e.scalar(0.5f)}));
    t = emit_linear(e, t, child<torch::nn::LinearImpl>(m, "proj", path), path + ".proj");
  } else {
    t = to_tokens(e, plain_conv(e, map, m, "conv", path));
  }
  return emit_layer_norm(e, t, child<torch::nn::LayerNormImpl>(m, "norm", path), path + ".norm");
}

}  // namespace

std::string emit_gelu(OnnxEmitter& e, const std::string& x) {
  const std::string erf = e.node("Erf", {e.node("Mul", {x, e.scalar(static_cast<float>(1.0 / std::sqrt(2.0)))})});
  const std::string half = e.node("Mul", {x, e.scalar(0.5f)});
  return e.node("Mul", {half, e.node("Add", {erf, e.scalar(1.0f)})}, {}, "gelu");
}

std::string emit_svtr_act(OnnxEmitter& e, const std::string& x, SvtrAct act) {
  return act == SvtrAct::Gelu ? emit_gelu(e, x) : emit_swish(e, x);
}

std::string svtr_conv_bn(OnnxEmitter& e, const std::string& x, const SvtrConvBNImpl& m, const std::string& path) {
  return emit_svtr_act(e, conv_bn(e, x, m, "conv", "norm", path), m.act());
}

std::string svtr_block(OnnxEmitter& e, const std::string& x, const SvtrBlockImpl& b, const std::string& path) {
  const auto& norm1 = child<torch::nn::LayerNormImpl>(b, "norm1", path);
  const auto& norm2 = child<torch::nn::LayerNormImpl>(b, "norm2", path);
  const int64_t dim = norm1.options.normalized_shape().at(0);
  const auto mix = [&](const std::string& in) {
    const Module* m = find_child(b, "mixer");
    if (const auto* a = m ? m->as<SvtrAttentionImpl>() : nullptr) return attention(e, in, *a, path + ".mixer");
    return conv_mixer(e, in, child<SvtrConvMixerImpl>(b, "mixer", path), dim, path + ".mixer");
  };
  const auto& mp = child<SvtrMlpImpl>(b, "mlp", path);
  if (b.prenorm()) {
    const std::string x1 = emit_layer_norm(e, e.node("Add", {x, mix(x)}), norm1, path + ".norm1");
    return emit_layer_norm(e, e.node("Add", {x1, mlp(e, x1, mp, path + ".mlp")}), norm2, path + ".norm2");
  }
  const std::string x1 = e.node("Add", {x, mix(emit_layer_norm(e, x, norm1, path + ".norm1"))});
  return e.node("Add", {x1, mlp(e, emit_layer_norm(e, x1, norm2, path + ".norm2"), mp, path + ".mlp")}, {}, path);
}

std::string svtrnet(OnnxEmitter& e, const std::string& x, const SvtrNetImpl& m, const std::string& path) {
  const SvtrNetSpec& s = m.spec();
  std::string y = x;
  const std::string pe = path + ".patch_embed.proj";
  for (const auto& kv : m.patch_embed()->named_children()) {
    const auto* c = kv.value()->as<SvtrConvBNImpl>();
    if (!c) throw Error("ONNX export: '" + pe + "." + kv.key() + "' is not a ConvBNLayer");
    y = svtr_conv_bn(e, y, *c, pe + "." + kv.key());
  }
  std::string t = to_tokens(e, y);
  t = e.node("Add", {t, e.constant(path + ".pos_embed", m.pos_embed().detach().to(torch::kCPU))}, {}, path + ".pos");
  for (int stage = 0; stage < 3; ++stage) {
    if (stage > 0 && m.sub_sample(stage - 1)) {
      const std::string map = to_map(e, t, s.embed_dim[stage - 1], s.grid_h(stage - 1), s.grid_w());
      t = sub_sample(e, map, *m.sub_sample(stage - 1), path + ".sub_sample" + std::to_string(stage));
    }
    const std::string bp = path + ".blocks" + std::to_string(stage + 1);
    for (const auto& kv : m.blocks(stage)->named_children()) {
      const auto* b = kv.value()->as<SvtrBlockImpl>();
      if (!b) throw Error("ONNX export: '" + bp + "." + kv.key() + "' is not an SVTR block");
      t = svtr_block(e, t, *b, bp + "." + kv.key());
    }
  }
  if (m.norm()) t = emit_layer_norm(e, t, *m.norm(), path + ".norm");
  std::string map = to_map(e, t, s.embed_dim[2], s.grid_h(2), s.grid_w());
  if (!m.last_conv()) return map;
  // AdaptiveAvgPool2D to 1 x out_char_num on the fixed-size map: the mean over
  // the rows, then each column bin's mean as one MatMul (any bin sizes).
  map = e.node("ReduceMean", {map}, {{"axes", onnx_ints({2})}, {"keepdims", onnx_int(1)}}, path + ".avg_pool.rows");
  map = e.node("MatMul", {map, e.constant(path + ".avg_pool.bins", adaptive_pool_matrix(s.grid_w(), s.out_char_num))},
               {}, path + ".avg_pool");
  map = e.node("HardSwish", {emit_conv(e, map, *m.last_conv(), nullptr, path + ".last_conv")});
  // Paddle's downscale_in_infer dropout scales by 1 - p at inference.
  return s.last_drop > 0 ? e.node("Mul", {map, e.scalar(static_cast<float>(1.0 - s.last_drop))}, {}, path + ".dropout")
                         : map;
}

}  // namespace ocrforge::export_blocks
