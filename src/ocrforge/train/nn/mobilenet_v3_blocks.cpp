#include "ocrforge/train/nn/mobilenet_v3_blocks.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace F = torch::nn::functional;
using S = std::vector<int64_t>;  // strides: ModuleHolder cannot forward a braced list

int64_t make_divisible(double v, int64_t divisor) {
  int64_t nv = std::max<int64_t>(divisor, static_cast<int64_t>(v + divisor / 2.0) / divisor * divisor);
  if (nv < 0.9 * v) nv += divisor;
  return nv;
}

namespace {
// Paddle's default conv initializer (these convs have no weight initializer set), zero bias.
void paddle_default(torch::nn::Conv2d& c) {
  paddle_init::default_conv(c->weight, c->options.in_channels());
  if (c->bias.defined()) {
    torch::NoGradGuard g;
    c->bias.zero_();
  }
}
}  // namespace

MV3ConvBNImpl::MV3ConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t padding,
                             int64_t groups, std::string act)
    : act_(std::move(act)) {
  conv_ = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                        .stride(stride)
                                                        .padding(padding)
                                                        .groups(groups)
                                                        .bias(false)));
  bn_ = register_module("bn", torch::nn::BatchNorm2d(out));
  paddle_default(conv_);
}

torch::Tensor MV3ConvBNImpl::forward(torch::Tensor x) {
  x = bn_(conv_(x));
  if (act_ == "relu") return torch::relu(x);
  if (act_ == "hardswish") return torch::hardswish(x);
  return x;
}

MV3SEImpl::MV3SEImpl(int64_t channels, int64_t reduction) {
  conv1_ = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels / reduction, 1)));
  conv2_ = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels / reduction, channels, 1)));
  paddle_default(conv1_);
  paddle_default(conv2_);
}

torch::Tensor MV3SEImpl::forward(torch::Tensor x) {
  auto s = F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions(1));
  s = conv2_(torch::relu(conv1_(s)));
  return x * torch::clamp(s * 0.2 + 0.5, 0.0, 1.0);
}

ResidualUnitImpl::ResidualUnitImpl(int64_t in, int64_t mid, int64_t out, int64_t kernel, std::vector<int64_t> stride,
                                   bool use_se, const std::string& act, bool shortcut)
    : shortcut_(shortcut) {
  expand_ = register_module("expand_conv", MV3ConvBN(in, mid, 1, S{1, 1}, 0, 1, act));
  bottleneck_ = register_module("bottleneck_conv", MV3ConvBN(mid, mid, kernel, stride, (kernel - 1) / 2, mid, act));
  if (use_se) se_ = register_module("mid_se", MV3SE(mid));
  linear_ = register_module("linear_conv", MV3ConvBN(mid, out, 1, S{1, 1}, 0, 1, ""));
}

torch::Tensor ResidualUnitImpl::forward(torch::Tensor x) {
  auto y = bottleneck_(expand_(x));
  if (se_) y = se_(y);
  y = linear_(y);
  return shortcut_ ? x + y : y;
}

}  // namespace ocrforge
