#include "ocrforge/train/tasks/det/det_resnet_vd.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

ResNetConvBNImpl::ResNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, bool relu, bool vd_pool)
    : relu_(relu), vd_pool_(vd_pool) {
  conv_ = register_module(
      "_conv",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding((kernel - 1) / 2).bias(false)));
  bn_ = register_module("_batch_norm", torch::nn::BatchNorm2d(out));
  paddle_init::default_conv(conv_->weight, in);  // no ParamAttr in PaddleOCR: Paddle's default
}

torch::Tensor ResNetConvBNImpl::forward(torch::Tensor x) {
  // ceil_mode: an odd side keeps its last row / column (averaged over the
  // cells inside the image, as Paddle's exclusive pooling does).
  if (vd_pool_) x = torch::avg_pool2d(x, {2, 2}, {2, 2}, {0, 0}, /*ceil_mode=*/true);
  x = bn_(conv_(x));
  return relu_ ? torch::relu(x) : x;
}

ResNetBlockImpl::ResNetBlockImpl(int64_t in, int64_t filters, int64_t stride, bool shortcut, bool if_first,
                                 bool bottleneck) {
  int64_t out = filters;
  if (bottleneck) {
    out = filters * 4;
    conv0_ = register_module("conv0", ResNetConvBN(in, filters, 1, 1, true));
    conv1_ = register_module("conv1", ResNetConvBN(filters, filters, 3, stride, true));
    conv2_ = register_module("conv2", ResNetConvBN(filters, out, 1, 1, false));
  } else {
    conv0_ = register_module("conv0", ResNetConvBN(in, filters, 3, stride, true));
    conv1_ = register_module("conv1", ResNetConvBN(filters, filters, 3, 1, false));
  }
  // The projection shortcut is a 1x1 conv with stride 1; the downsampling is
  // the average pool in front of it (ResNet-D), skipped in the first block.
  if (!shortcut) short_ = register_module("short", ResNetConvBN(in, out, 1, 1, false, /*vd_pool=*/!if_first));
}

torch::Tensor ResNetBlockImpl::forward(torch::Tensor x) {
  auto y = conv1_(conv0_(x));
  if (conv2_) y = conv2_(y);
  return torch::relu(y + (short_ ? short_(x) : x));
}

DetResNetVdImpl::DetResNetVdImpl(const DetBackboneSpec& spec) {
  std::vector<int> depth;
  if (spec.layers == 18) {
    depth = {2, 2, 2, 2};
  } else if (spec.layers == 34 || spec.layers == 50) {
    depth = {3, 4, 6, 3};
  } else {
    throw UsageError("Architecture.Backbone.layers: " + std::to_string(spec.layers) +
                     " is not supported (known: 18, 34, 50)");
  }
  const bool bottleneck = spec.layers >= 50;
  const int64_t filters[] = {64, 128, 256, 512};
  conv1_1_ = register_module("conv1_1", ResNetConvBN(spec.in_channels, 32, 3, 2, true));
  conv1_2_ = register_module("conv1_2", ResNetConvBN(32, 32, 3, 1, true));
  conv1_3_ = register_module("conv1_3", ResNetConvBN(32, 64, 3, 1, true));
  int64_t in = 64;
  for (int b = 0; b < 4; ++b) {
    std::vector<ResNetBlock> stage;
    for (int i = 0; i < depth[b]; ++i) {
      // Only the first block of a stage changes the shape (and stride 2 from stage 1 on).
      ResNetBlock block(in, filters[b], (i == 0 && b != 0) ? 2 : 1, /*shortcut=*/i != 0, /*if_first=*/b == 0 && i == 0,
                        bottleneck);
      stage.push_back(register_module("bb_" + std::to_string(b) + "_" + std::to_string(i), block));
      in = bottleneck ? filters[b] * 4 : filters[b];
    }
    stages_.push_back(std::move(stage));
    out_channels_.push_back(in);
  }
}

std::vector<torch::Tensor> DetResNetVdImpl::forward(torch::Tensor x) {
  x = conv1_3_(conv1_2_(conv1_1_(x)));
  x = torch::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
  std::vector<torch::Tensor> outs;
  outs.reserve(stages_.size());
  for (auto& stage : stages_) {
    for (auto& block : stage) x = block(x);
    outs.push_back(x);
  }
  return outs;
}

}  // namespace ocrforge
