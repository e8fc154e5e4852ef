#include "ocrforge/train/export/pplcnet_v3_emitter.h"

#include "ocrforge/train/export/module_emitters.h"

namespace ocrforge::export_blocks {
namespace {

std::string lab(OnnxEmitter& e, const std::string& x, const LearnableAffineBlockImpl& m, const std::string& path) {
  const std::string y = e.node("Mul", {x, e.constant(path + ".scale", m.scale.detach())});
  return e.node("Add", {y, e.constant(path + ".bias", m.bias.detach())}, {}, path);
}

std::string rep_layer(OnnxEmitter& e, const std::string& x, const LearnableRepLayerImpl& m, const std::string& path) {
  // One conv with the fused kernel: a stand-in Conv2d with the layer's geometry.
  const auto [kernel, bias] = m.fused_kernel_bias();
  const auto& o = m.deploy() ? m.reparam_conv->options : m.conv_kxk.at(0)->conv->options;
  torch::nn::Conv2d fused(torch::nn::Conv2dOptions(o.in_channels(), o.out_channels(), o.kernel_size())
                              .stride(o.stride())
                              .padding(o.padding())
                              .groups(o.groups())
                              .bias(true));
  {
    torch::NoGradGuard g;
    fused->weight.copy_(kernel);
    fused->bias.copy_(bias);
  }
  std::string y = emit_conv(e, x, *fused, nullptr, path + ".reparam_conv");
  y = lab(e, y, *m.lab, path + ".lab");
  if (!m.has_act()) return y;
  return lab(e, e.node("HardSwish", {y}), *m.act->lab, path + ".act.lab");
}

std::string blocks(OnnxEmitter& e, std::string y, const torch::nn::SequentialImpl& seq, const std::string& path) {
  for (size_t j = 0; j < seq.size(); ++j) {
    const std::string bp = path + "." + std::to_string(j);
    const auto* block = seq[j]->as<LCNetV3BlockImpl>();
    if (!block) throw Error("ONNX export: '" + bp + "' is a " + seq[j]->name() + ", not an LCNetV3 block");
    y = rep_layer(e, y, *block->dw_conv, bp + ".dw_conv");
    if (block->se) y = se(e, y, *block->se, 1.0f / 6.0f, bp + ".se");
    y = rep_layer(e, y, *block->pw_conv, bp + ".pw_conv");
  }
  return y;
}

std::string stem(OnnxEmitter& e, const std::string& x, const PPLCNetV3Layers& m, const std::string& path) {
  return emit_conv(e, x, *m.conv1->conv, m.conv1->bn.get(), path + ".conv1.conv");
}

}  // namespace

std::vector<std::string> pplcnet_v3_features(OnnxEmitter& e, const std::string& x, const PPLCNetV3Layers& m,
                                             const std::string& path) {
  std::string y = blocks(e, stem(e, x, m, path), *m.blocks.at(0), path + ".blocks2");
  std::vector<std::string> outs;
  for (size_t i = 1; i < m.blocks.size(); ++i) {
    y = blocks(e, y, *m.blocks[i], path + ".blocks" + std::to_string(i + 2));
    outs.push_back(m.layer_list.empty() ? y
                                        : emit_conv(e, y, *m.layer_list[i - 1], nullptr,
                                                    path + ".layer_list." + std::to_string(i - 1)));
  }
  return outs;
}

std::string pplcnet_v3_last(OnnxEmitter& e, const std::string& x, const PPLCNetV3Layers& m, const std::string& path) {
  std::string y = stem(e, x, m, path);
  for (size_t i = 0; i < m.blocks.size(); ++i) y = blocks(e, y, *m.blocks[i], path + ".blocks" + std::to_string(i + 2));
  return y;
}

}  // namespace ocrforge::export_blocks
