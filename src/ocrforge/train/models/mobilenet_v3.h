// MobileNetV3, recognition variant (PaddleOCR ppocr/modeling/backbones/
// rec_mobilenet_v3.py, blocks from det_mobilenet_v3.py): the downsampling
// blocks stride (s, 1) so width is kept for the sequence, then conv 1x1 to
// make_divisible(scale * 960 | 576) and a 2x2 max pool. Sub-layer names as
// PaddleOCR: conv1.conv / conv1.bn, blocks.<i>.expand_conv | bottleneck_conv |
// mid_se.conv1|conv2 | linear_conv, conv2.conv / conv2.bn.
// 32x100 -> 1x25 for large ([1,2,2,2]) and for small with small_stride
// [1,2,2,2] (ch_ppocr_mobile_v2.0); the default small_stride [2,2,2,2] needs an
// input more than 32 high (48 -> 1).
#pragma once
#include "ocrforge/train/models/rec_backbone.h"

namespace ocrforge {

// PaddleOCR's make_divisible(v, 8): round to a multiple of 8, at least 8,
// never more than 10% below v.
int64_t make_divisible(double v, int64_t divisor = 8);

// conv (no bias) -> BatchNorm -> act ("relu" | "hardswish" | "" for none).
class MV3ConvBNImpl : public torch::nn::Module {
 public:
  MV3ConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t padding, int64_t groups,
                std::string act);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d bn_{nullptr};
  std::string act_;
};
TORCH_MODULE(MV3ConvBN);

// SE with Paddle's hardsigmoid(slope=0.2, offset=0.5) = clamp(0.2x + 0.5, 0, 1)
// (ONNX HardSigmoid's default alpha 0.2, not torch's 1/6).
class MV3SEImpl : public torch::nn::Module {
 public:
  explicit MV3SEImpl(int64_t channels, int64_t reduction = 4);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
};
TORCH_MODULE(MV3SE);

// Inverted residual: expand 1x1 -> depthwise kxk (stride) [-> SE] -> linear 1x1,
// plus the input when `shortcut`.
class ResidualUnitImpl : public torch::nn::Module {
 public:
  ResidualUnitImpl(int64_t in, int64_t mid, int64_t out, int64_t kernel, std::vector<int64_t> stride, bool use_se,
                   const std::string& act, bool shortcut);
  torch::Tensor forward(torch::Tensor x);

 private:
  MV3ConvBN expand_{nullptr}, bottleneck_{nullptr}, linear_{nullptr};
  MV3SE se_{nullptr};
  bool shortcut_ = false;
};
TORCH_MODULE(ResidualUnit);

class MobileNetV3Impl : public RecBackboneImpl {
 public:
  explicit MobileNetV3Impl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return out_channels_; }

 private:
  MV3ConvBN conv1_{nullptr}, conv2_{nullptr};
  torch::nn::Sequential blocks_{nullptr};
  int64_t out_channels_ = 0;
};
TORCH_MODULE(MobileNetV3);

}  // namespace ocrforge
