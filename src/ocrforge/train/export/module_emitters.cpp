#include "ocrforge/train/export/module_emitters.h"

namespace ocrforge::export_blocks {

const torch::nn::Module* find_child(const torch::nn::Module& m, const std::string& name) {
  for (const auto& kv : m.named_children())
    if (kv.key() == name) return kv.value().get();
  return nullptr;
}

std::string conv_bn(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, const std::string& conv,
                    const std::string& bn, const std::string& path) {
  return emit_conv(e, x, child<torch::nn::Conv2dImpl>(m, conv, path), &child<torch::nn::BatchNorm2dImpl>(m, bn, path),
                   path + "." + conv);
}

std::string plain_conv(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, const std::string& conv,
                       const std::string& path) {
  return emit_conv(e, x, child<torch::nn::Conv2dImpl>(m, conv, path), nullptr, path + "." + conv);
}

std::string se(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, float slope, const std::string& path) {
  std::string s = e.node("GlobalAveragePool", {x}, {}, path + ".pool");
  s = e.node("Relu", {plain_conv(e, s, m, "conv1", path)});
  s = e.node("HardSigmoid", {plain_conv(e, s, m, "conv2", path)},
             {{"alpha", onnx_float(slope)}, {"beta", onnx_float(0.5f)}});
  return e.node("Mul", {x, s}, {}, path);
}

std::string mv3_conv_bn(OnnxEmitter& e, const std::string& x, const MV3ConvBNImpl& m, const std::string& path) {
  return emit_activation(e, conv_bn(e, x, m, "conv", "bn", path), m.act());
}

std::string mv3_residual_unit(OnnxEmitter& e, const std::string& x, const ResidualUnitImpl& unit,
                              const std::string& path) {
  std::string y = mv3_conv_bn(e, x, child<MV3ConvBNImpl>(unit, "expand_conv", path), path + ".expand_conv");
  y = mv3_conv_bn(e, y, child<MV3ConvBNImpl>(unit, "bottleneck_conv", path), path + ".bottleneck_conv");
  // MobileNetV3's hard sigmoid is Paddle's (slope 0.2).
  if (find_child(unit, "mid_se")) y = se(e, y, child<MV3SEImpl>(unit, "mid_se", path), 0.2f, path + ".mid_se");
  y = mv3_conv_bn(e, y, child<MV3ConvBNImpl>(unit, "linear_conv", path), path + ".linear_conv");
  return unit.shortcut() ? e.node("Add", {x, y}, {}, path) : y;
}

std::string resnet_conv_bn(OnnxEmitter& e, std::string x, const ResNetConvBNImpl& m, const std::string& path) {
  // The "vd" shortcut's average pool: ceil mode, each window averaged over
  // the cells inside the map (LibTorch's divisor with no padding).
  const std::vector<int64_t> k = m.pool_kernel();
  if (!k.empty())
    x = e.node("AveragePool", {x},
               {{"kernel_shape", onnx_ints(k)},
                {"strides", onnx_ints(k)},
                {"pads", onnx_ints({0, 0, 0, 0})},
                {"ceil_mode", onnx_int(1)},
                {"count_include_pad", onnx_int(0)}},
               path + ".pool");
  x = conv_bn(e, x, m, "_conv", "_batch_norm", path);
  return m.relu() ? e.node("Relu", {x}, {}, path) : x;
}

std::string resnet_block(OnnxEmitter& e, const std::string& x, const ResNetBlockImpl& block, const std::string& path) {
  const auto conv = [&](const std::string& in, const char* c) {
    return resnet_conv_bn(e, in, child<ResNetConvBNImpl>(block, c, path), path + "." + c);
  };
  std::string r = conv(conv(x, "conv0"), "conv1");
  if (find_child(block, "conv2")) r = conv(r, "conv2");
  const std::string shortcut = find_child(block, "short") ? conv(x, "short") : x;
  return e.node("Relu", {e.node("Add", {r, shortcut})}, {}, path);
}

}  // namespace ocrforge::export_blocks
