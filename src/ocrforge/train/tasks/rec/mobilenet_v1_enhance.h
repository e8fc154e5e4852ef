// MobileNetV1Enhance, the PP-LCNet-style backbone of PP-OCRv2/v3 recognition
// (PaddleOCR ppocr/modeling/backbones/rec_mv1_enhance.py). Same layers,
// channel counts (int(c * scale)), strides and sub-layer names:
//   conv1._conv / conv1._batch_norm, block_list.<i>._depthwise_conv,
//   block_list.<i>._se.conv1|conv2, block_list.<i>._pointwise_conv.
// Height is reduced 2 (conv1) x 2 x 2 x 2 (the (2,1) blocks) x last_conv_stride
// x final pool, width by 2 x last_conv_stride x pool: 48x320 -> 1x40 with the
// PP-OCRv3 settings (stride [1,2], avg [2,2]); 32x100 -> 1x25 with PaddleOCR's
// defaults (stride 1, max 2x2).
#pragma once
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

// conv (no bias, KaimingNormal) -> BatchNorm -> hardswish.
class MV1ConvBNImpl : public torch::nn::Module {
 public:
  MV1ConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t padding, int64_t groups);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d bn_{nullptr};
};
TORCH_MODULE(MV1ConvBN);

// Squeeze-excitation: global avg pool -> 1x1 (C/4, relu) -> 1x1 (C) ->
// hardsigmoid (Paddle's default slope 1/6 = torch's) -> scale the input.
class MV1SEImpl : public torch::nn::Module {
 public:
  explicit MV1SEImpl(int64_t channels, int64_t reduction = 4);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
};
TORCH_MODULE(MV1SE);

// depthwise conv (dw_size, stride) [-> SE] -> pointwise 1x1.
class DepthwiseSeparableImpl : public torch::nn::Module {
 public:
  DepthwiseSeparableImpl(int64_t in, int64_t filters1, int64_t filters2, int64_t groups, std::vector<int64_t> stride,
                         double scale, int64_t dw_size = 3, int64_t padding = 1, bool use_se = false);
  torch::Tensor forward(torch::Tensor x);

 private:
  MV1ConvBN depthwise_{nullptr}, pointwise_{nullptr};
  MV1SE se_{nullptr};
};
TORCH_MODULE(DepthwiseSeparable);

class MobileNetV1EnhanceImpl : public RecBackboneImpl {
 public:
  explicit MobileNetV1EnhanceImpl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return out_channels_; }
  // The final pool (for the ONNX exporter): average or max, kernel = stride.
  bool avg_pool() const { return avg_pool_; }
  const std::vector<int64_t>& pool_kernel() const { return pool_kernel_; }

 private:
  MV1ConvBN conv1_{nullptr};
  torch::nn::Sequential blocks_{nullptr};
  bool avg_pool_ = true;
  std::vector<int64_t> pool_kernel_;
  int64_t out_channels_ = 0;
};
TORCH_MODULE(MobileNetV1Enhance);

}  // namespace ocrforge
