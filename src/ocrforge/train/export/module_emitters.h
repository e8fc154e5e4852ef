// Emitters shared by the rec and det model exporters (rec_model_onnx.h,
// det_model_onnx.h): typed access to a module's children with errors that
// name the module path, and the blocks both model families are built from
// (conv + folded batch norm, squeeze-excitation, MobileNetV3 conv / residual
// unit, ResNet conv / residual block).
#pragma once
#include <torch/torch.h>

#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/nn/mobilenet_v3_blocks.h"
#include "ocrforge/train/nn/resnet_blocks.h"

namespace ocrforge::export_blocks {

const torch::nn::Module* find_child(const torch::nn::Module& m, const std::string& name);

// Sub-module `name` of `m` as a T; Error naming `path` otherwise.
template <typename T>
const T& child(const torch::nn::Module& m, const std::string& name, const std::string& path) {
  const torch::nn::Module* c = find_child(m, name);
  if (!c) throw Error("ONNX export: '" + path + "' has no sub-module '" + name + "'");
  const T* t = c->as<T>();
  if (!t)
    throw Error("ONNX export: '" + path + "." + name + "' is a " + c->name() +
                ", not the module the exporter expects");
  return *t;
}

// Child conv `conv` with child batch norm `bn` folded in (initializers `path.conv.*`).
std::string conv_bn(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, const std::string& conv,
                    const std::string& bn, const std::string& path);
// Child conv `conv` alone.
std::string plain_conv(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, const std::string& conv,
                       const std::string& path);

// Squeeze-excitation (children conv1, conv2): pool -> conv1 -> relu -> conv2
// -> hard sigmoid (slope `slope`, offset 0.5) -> scale x.
std::string se(OnnxEmitter& e, const std::string& x, const torch::nn::Module& m, float slope, const std::string& path);

// MobileNetV3's conv + BN + its activation.
std::string mv3_conv_bn(OnnxEmitter& e, const std::string& x, const MV3ConvBNImpl& m, const std::string& path);
// expand -> depthwise -> [SE] -> linear conv [+ x].
std::string mv3_residual_unit(OnnxEmitter& e, const std::string& x, const ResidualUnitImpl& unit,
                              const std::string& path);

// ResNet's ConvBNLayer: [average pool, ceil mode] -> conv + BN [-> ReLU].
std::string resnet_conv_bn(OnnxEmitter& e, std::string x, const ResNetConvBNImpl& m, const std::string& path);
// A ResNet BasicBlock / BottleneckBlock: conv0 -> conv1 (-> conv2), plus the
// input or the `short` conv, then ReLU.
std::string resnet_block(OnnxEmitter& e, const std::string& x, const ResNetBlockImpl& block, const std::string& path);

}  // namespace ocrforge::export_blocks
