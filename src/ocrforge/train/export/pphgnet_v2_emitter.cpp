#include "ocrforge/train/export/pphgnet_v2_emitter.h"

#include <algorithm>

#include "ocrforge/train/export/module_emitters.h"

namespace ocrforge::export_blocks {
namespace {

std::string conv_bn_act(OnnxEmitter& e, std::string x, const HGV2ConvBNActImpl& m, const std::string& path) {
  const auto& p = m.same_pads();
  if (!p.empty()) {
    // ONNX Pad's pads: the begins of N, C, H, W, then their ends.
    x = e.node("Pad", {x, e.ints({0, 0, p[0], p[1], 0, 0, p[2], p[3]})}, {{"mode", onnx_string("constant")}},
               path + ".pad");
  }
  std::string y = emit_conv(e, x, *m.conv, m.bn.get(), path + ".conv");
  if (!m.has_act()) return y;
  y = e.node("Relu", {y});
  if (!m.lab) return y;
  y = e.node("Mul", {y, e.constant(path + ".lab.scale", m.lab->scale.detach())});
  return e.node("Add", {y, e.constant(path + ".lab.bias", m.lab->bias.detach())}, {}, path + ".lab");
}

std::string block(OnnxEmitter& e, const std::string& x, const HGV2BlockImpl& b, const std::string& path) {
  std::vector<std::string> outs{x};
  std::string y = x;
  for (size_t i = 0; i < b.conv_layers.size(); ++i) {
    y = conv_bn_act(e, y, *b.conv_layers[i], path + ".layers." + std::to_string(i));
    outs.push_back(y);
  }
  for (size_t i = 0; i < b.light_layers.size(); ++i) {
    const std::string lp = path + ".layers." + std::to_string(i);
    y = conv_bn_act(e, conv_bn_act(e, y, *b.light_layers[i]->conv1, lp + ".conv1"), *b.light_layers[i]->conv2,
                    lp + ".conv2");
    outs.push_back(y);
  }
  y = e.node("Concat", outs, {{"axis", onnx_int(1)}}, path + ".concat");
  y = conv_bn_act(e, y, *b.aggregation_squeeze_conv, path + ".aggregation_squeeze_conv");
  y = conv_bn_act(e, y, *b.aggregation_excitation_conv, path + ".aggregation_excitation_conv");
  return b.identity() ? e.node("Add", {y, x}, {}, path) : y;
}

std::string stem(OnnxEmitter& e, const std::string& x, const PPHGNetV2Layers& m, const std::string& path) {
  const auto& s = *m.stem;
  const std::string sp = path + ".stem";
  const std::string y = conv_bn_act(e, x, *s.stem1, sp + ".stem1");
  const std::string x2 = conv_bn_act(e, conv_bn_act(e, y, *s.stem2a, sp + ".stem2a"), *s.stem2b, sp + ".stem2b");
  // pads: H begin, W begin, H end, W end (hgv2_stem_pool).
  const std::string x1 = e.node(
      "MaxPool", {y},
      {{"kernel_shape", onnx_ints({2, 2})}, {"strides", onnx_ints({1, 1})}, {"pads", onnx_ints({0, 0, 1, 1})}},
      sp + ".pool");
  std::string z = e.node("Concat", {x1, x2}, {{"axis", onnx_int(1)}}, sp + ".concat");
  z = conv_bn_act(e, z, *s.stem3, sp + ".stem3");
  return conv_bn_act(e, z, *s.stem4, sp + ".stem4");
}

std::string stage(OnnxEmitter& e, std::string x, const HGV2StageImpl& s, const std::string& path) {
  if (s.downsample) x = conv_bn_act(e, x, *s.downsample, path + ".downsample");
  for (size_t j = 0; j < s.blocks.size(); ++j) x = block(e, x, *s.blocks[j], path + ".blocks." + std::to_string(j));
  return x;
}

}  // namespace

std::vector<std::string> pphgnet_v2_features(OnnxEmitter& e, const std::string& x, const PPHGNetV2Layers& m,
                                             const std::string& path) {
  std::string y = stem(e, x, m, path);
  std::vector<std::string> outs;
  for (size_t i = 0; i < m.stages.size(); ++i) {
    y = stage(e, y, *m.stages[i], path + ".stages." + std::to_string(i));
    if (std::find(m.out_indices.begin(), m.out_indices.end(), static_cast<int>(i)) != m.out_indices.end())
      outs.push_back(y);
  }
  return outs;
}

std::string pphgnet_v2_last(OnnxEmitter& e, const std::string& x, const PPHGNetV2Layers& m, const std::string& path) {
  std::string y = stem(e, x, m, path);
  for (size_t i = 0; i < m.stages.size(); ++i) y = stage(e, y, *m.stages[i], path + ".stages." + std::to_string(i));
  return y;
}

}  // namespace ocrforge::export_blocks
