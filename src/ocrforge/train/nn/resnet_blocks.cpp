#include "ocrforge/train/nn/resnet_blocks.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

ResNetConvBNImpl::ResNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, torch::ExpandingArray<2> stride,
                                   bool relu, torch::ExpandingArray<2> pool)
    : relu_(relu) {
  if ((*pool)[0] > 0 && (*pool)[1] > 0) pool_ = {(*pool)[0], (*pool)[1]};
  conv_ = register_module(
      "_conv",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding((kernel - 1) / 2).bias(false)));
  bn_ = register_module("_batch_norm", torch::nn::BatchNorm2d(out));
  paddle_init::default_conv(conv_->weight, in);  // no initializer in PaddleOCR: Paddle's default
}

std::vector<int64_t> ResNetConvBNImpl::pool_kernel() const { return pool_; }

torch::Tensor ResNetConvBNImpl::forward(torch::Tensor x) {
  // ceil_mode: an odd side keeps its last row / column, averaged over the
  // cells inside the map (Paddle's exclusive pooling; LibTorch divides by
  // the clipped window when there is no padding).
  if (!pool_.empty()) x = torch::avg_pool2d(x, pool_, pool_, {0, 0}, /*ceil_mode=*/true);
  x = bn_(conv_(x));
  return relu_ ? torch::relu(x) : x;
}

ResNetBlockImpl::ResNetBlockImpl(int64_t in, int64_t filters, torch::ExpandingArray<2> stride,
                                 ResNetShortcut shortcut, bool bottleneck) {
  if (bottleneck) {
    out_ = filters * 4;
    conv0_ = register_module("conv0", ResNetConvBN(in, filters, 1, 1, true));
    conv1_ = register_module("conv1", ResNetConvBN(filters, filters, 3, stride, true));
    conv2_ = register_module("conv2", ResNetConvBN(filters, out_, 1, 1, false));
  } else {
    out_ = filters;
    conv0_ = register_module("conv0", ResNetConvBN(in, filters, 3, stride, true));
    conv1_ = register_module("conv1", ResNetConvBN(filters, filters, 3, 1, false));
  }
  if (shortcut == ResNetShortcut::kConv) {
    short_ = register_module("short", ResNetConvBN(in, out_, 1, stride, false));
  } else if (shortcut == ResNetShortcut::kPoolConv) {
    // ResNet-D: the pool downsamples, so the 1x1 conv sees every cell.
    short_ = register_module("short", ResNetConvBN(in, out_, 1, 1, false, stride));
  }
}

torch::Tensor ResNetBlockImpl::forward(torch::Tensor x) {
  auto y = conv1_(conv0_(x));
  if (conv2_) y = conv2_(y);
  return torch::relu(y + (short_ ? short_(x) : x));
}

std::vector<int> resnet_depths(int layers) {
  switch (layers) {
    case 18: return {2, 2, 2, 2};
    case 34:
    case 50: return {3, 4, 6, 3};
    case 101: return {3, 4, 23, 3};
    case 152: return {3, 8, 36, 3};
    case 200: return {3, 12, 48, 3};
    default: return {};
  }
}

}  // namespace ocrforge
