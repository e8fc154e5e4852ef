#include "ocrforge/train/export/pphgnet_emitter.h"

#include <algorithm>

#include "ocrforge/train/export/module_emitters.h"

namespace ocrforge::export_blocks {
namespace {

std::string conv_bn_act(OnnxEmitter& e, const std::string& x, const HGConvBNActImpl& m, const std::string& path) {
  const std::string y = emit_conv(e, x, *m.conv, m.bn.get(), path + ".conv");
  return m.has_act() ? e.node("Relu", {y}) : y;
}

std::string block(OnnxEmitter& e, const std::string& x, const HGBlockImpl& b, const std::string& path) {
  std::vector<std::string> outs{x};
  std::string y = x;
  for (size_t i = 0; i < b.layers.size(); ++i) {
    y = conv_bn_act(e, y, *b.layers[i], path + ".layers." + std::to_string(i));
    outs.push_back(y);
  }
  y = e.node("Concat", outs, {{"axis", onnx_int(1)}}, path + ".concat");
  y = conv_bn_act(e, y, *b.aggregation_conv, path + ".aggregation_conv");
  std::string a = e.node("GlobalAveragePool", {y}, {}, path + ".att.pool");
  a = e.node("Sigmoid", {emit_conv(e, a, *b.att->conv, nullptr, path + ".att.conv")});
  y = e.node("Mul", {y, a}, {}, path + ".att");
  return b.identity() ? e.node("Add", {y, x}, {}, path) : y;
}

std::string stem(OnnxEmitter& e, std::string x, const PPHGNetLayers& m, const std::string& path) {
  for (size_t i = 0; i < m.stem.size(); ++i) x = conv_bn_act(e, x, *m.stem[i], path + ".stem." + std::to_string(i));
  if (!m.det) return x;
  return e.node("MaxPool", {x},
                {{"kernel_shape", onnx_ints({3, 3})}, {"strides", onnx_ints({2, 2})}, {"pads", onnx_ints({1, 1, 1, 1})}},
                path + ".pool");
}

std::string stage(OnnxEmitter& e, std::string x, const HGStageImpl& s, const std::string& path) {
  if (s.downsample) x = conv_bn_act(e, x, *s.downsample, path + ".downsample");
  for (size_t j = 0; j < s.blocks.size(); ++j) x = block(e, x, *s.blocks[j], path + ".blocks." + std::to_string(j));
  return x;
}

}  // namespace

std::vector<std::string> pphgnet_features(OnnxEmitter& e, const std::string& x, const PPHGNetLayers& m,
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

std::string pphgnet_last(OnnxEmitter& e, const std::string& x, const PPHGNetLayers& m, const std::string& path) {
  std::string y = stem(e, x, m, path);
  for (size_t i = 0; i < m.stages.size(); ++i) y = stage(e, y, *m.stages[i], path + ".stages." + std::to_string(i));
  return y;
}

}  // namespace ocrforge::export_blocks
