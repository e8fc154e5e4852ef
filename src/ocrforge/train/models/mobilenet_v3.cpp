#include "ocrforge/train/models/mobilenet_v3.h"

#include "ocrforge/train/models/paddle_init.h"

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

namespace {
struct BlockCfg {
  int64_t k, exp, c;
  bool se;
  const char* act;
  int64_t sh;        // height stride
  bool tuple_stride;  // PaddleOCR writes (s, 1): then `stride == 1` is false and no shortcut is added
};

// PaddleOCR's cfg tables: k, exp, c, se, act, stride.
std::vector<BlockCfg> large_cfg(const std::vector<int>& ls) {
  return {{3, 16, 16, false, "relu", ls.at(0), false},      {3, 64, 24, false, "relu", ls.at(1), true},
          {3, 72, 24, false, "relu", 1, false},            {5, 72, 40, true, "relu", ls.at(2), true},
          {5, 120, 40, true, "relu", 1, false},            {5, 120, 40, true, "relu", 1, false},
          {3, 240, 80, false, "hardswish", 1, false},      {3, 200, 80, false, "hardswish", 1, false},
          {3, 184, 80, false, "hardswish", 1, false},      {3, 184, 80, false, "hardswish", 1, false},
          {3, 480, 112, true, "hardswish", 1, false},      {3, 672, 112, true, "hardswish", 1, false},
          {5, 672, 160, true, "hardswish", ls.at(3), true}, {5, 960, 160, true, "hardswish", 1, false},
          {5, 960, 160, true, "hardswish", 1, false}};
}

std::vector<BlockCfg> small_cfg(const std::vector<int>& ss) {
  return {{3, 16, 16, true, "relu", ss.at(0), true},       {3, 72, 24, false, "relu", ss.at(1), true},
          {3, 88, 24, false, "relu", 1, false},            {5, 96, 40, true, "hardswish", ss.at(2), true},
          {5, 240, 40, true, "hardswish", 1, false},       {5, 240, 40, true, "hardswish", 1, false},
          {5, 120, 48, true, "hardswish", 1, false},       {5, 144, 48, true, "hardswish", 1, false},
          {5, 288, 96, true, "hardswish", ss.at(3), true}, {5, 576, 96, true, "hardswish", 1, false},
          {5, 576, 96, true, "hardswish", 1, false}};
}
}  // namespace

MobileNetV3Impl::MobileNetV3Impl(const BackboneSpec& spec) {
  const bool large = spec.model_name == "large";
  const std::vector<BlockCfg> cfg = large ? large_cfg(spec.large_stride) : small_cfg(spec.small_stride);
  const int64_t squeeze = large ? 960 : 576;
  const double s = spec.scale;
  int64_t inplanes = make_divisible(16 * s);
  conv1_ = register_module("conv1", MV3ConvBN(spec.in_channels, inplanes, 3, S{2, 2}, 1, 1, "hardswish"));
  blocks_ = torch::nn::Sequential();
  for (const auto& b : cfg) {
    const int64_t out = make_divisible(s * b.c);
    // A scalar stride applies to both axes: large_stride[0] = 2 halves the width too, as in PaddleOCR.
    const std::vector<int64_t> stride = b.tuple_stride ? std::vector<int64_t>{b.sh, 1} : std::vector<int64_t>{b.sh, b.sh};
    const bool shortcut = !b.tuple_stride && b.sh == 1 && inplanes == out;
    blocks_->push_back(ResidualUnit(inplanes, make_divisible(s * b.exp), out, b.k, stride, b.se && !spec.disable_se,
                                    b.act, shortcut));
    inplanes = out;
  }
  register_module("blocks", blocks_);
  out_channels_ = make_divisible(s * squeeze);
  conv2_ = register_module("conv2", MV3ConvBN(inplanes, out_channels_, 1, S{1, 1}, 0, 1, "hardswish"));
}

torch::Tensor MobileNetV3Impl::forward(torch::Tensor x) {
  auto y = conv2_(blocks_->forward(conv1_(x)));
  check_pool_input(y, {2, 2}, "MobileNetV3", x);
  return torch::max_pool2d(y, {2, 2}, {2, 2}, {0, 0});
}

}  // namespace ocrforge
