// MobileNetV3 building blocks shared by the recognition backbone
// (mobilenet_v3.h) and the detection backbone (det_mobilenet_v3.h), as in
// PaddleOCR where rec_mobilenet_v3.py imports them from det_mobilenet_v3.py.
// Sub-layer names are PaddleOCR's (conv / bn, expand_conv, bottleneck_conv,
// mid_se.conv1|conv2, linear_conv), so checkpoint keys read the same.
// All tensors NCHW (or channels-last NCHW strides).
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

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
  const std::string& act() const { return act_; }  // for the ONNX exporter

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
  bool shortcut() const { return shortcut_; }

 private:
  MV3ConvBN expand_{nullptr}, bottleneck_{nullptr}, linear_{nullptr};
  MV3SE se_{nullptr};
  bool shortcut_ = false;
};
TORCH_MODULE(ResidualUnit);

}  // namespace ocrforge
