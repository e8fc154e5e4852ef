#include "ocrforge/train/tasks/rec/mobilenet_v1_enhance.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace F = torch::nn::functional;
using S = std::vector<int64_t>;  // strides: ModuleHolder cannot forward a braced list

MV1ConvBNImpl::MV1ConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride, int64_t padding,
                             int64_t groups) {
  conv_ = register_module("_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                         .stride(stride)
                                                         .padding(padding)
                                                         .groups(groups)
                                                         .bias(false)));
  bn_ = register_module("_batch_norm", torch::nn::BatchNorm2d(out));
  paddle_init::kaiming_normal(conv_->weight);
}

torch::Tensor MV1ConvBNImpl::forward(torch::Tensor x) { return torch::hardswish(bn_(conv_(x))); }

MV1SEImpl::MV1SEImpl(int64_t channels, int64_t reduction) {
  conv1_ = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels / reduction, 1)));
  conv2_ = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels / reduction, channels, 1)));
  // ParamAttr() without initializer: Paddle's default conv init, zero bias.
  for (auto* c : {&conv1_, &conv2_}) {
    paddle_init::default_conv((*c)->weight, (*c)->options.in_channels());
    torch::NoGradGuard g;
    (*c)->bias.zero_();
  }
}

torch::Tensor MV1SEImpl::forward(torch::Tensor x) {
  auto s = F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions(1));
  s = torch::hardsigmoid(conv2_(torch::relu(conv1_(s))));
  return x * s;
}

DepthwiseSeparableImpl::DepthwiseSeparableImpl(int64_t in, int64_t filters1, int64_t filters2, int64_t groups,
                                               std::vector<int64_t> stride, double scale, int64_t dw_size,
                                               int64_t padding, bool use_se) {
  // int() truncation of c * scale, exactly as PaddleOCR.
  const auto c1 = static_cast<int64_t>(filters1 * scale);
  const auto c2 = static_cast<int64_t>(filters2 * scale);
  depthwise_ = register_module("_depthwise_conv",
                               MV1ConvBN(in, c1, dw_size, stride, padding, static_cast<int64_t>(groups * scale)));
  if (use_se) se_ = register_module("_se", MV1SE(c1));
  pointwise_ = register_module("_pointwise_conv", MV1ConvBN(c1, c2, 1, S{1, 1}, 0, 1));
}

torch::Tensor DepthwiseSeparableImpl::forward(torch::Tensor x) {
  x = depthwise_(x);
  if (se_) x = se_(x);
  return pointwise_(x);
}

MobileNetV1EnhanceImpl::MobileNetV1EnhanceImpl(const BackboneSpec& spec) {
  const double s = spec.scale;
  const auto sc = [s](int c) { return static_cast<int64_t>(c * s); };
  conv1_ = register_module("conv1", MV1ConvBN(spec.in_channels, sc(32), 3, S{2, 2}, 1, 1));

  const std::vector<int64_t> s1{1, 1}, s21{2, 1};
  std::vector<int64_t> last{spec.last_conv_stride.at(0), spec.last_conv_stride.back()};
  blocks_ = torch::nn::Sequential();
  // (in, filters1, filters2, groups, stride[, dw 5x5, SE]) as rec_mv1_enhance.py
  blocks_->push_back(DepthwiseSeparable(sc(32), 32, 64, 32, s1, s));     // conv2_1
  blocks_->push_back(DepthwiseSeparable(sc(64), 64, 128, 64, s1, s));    // conv2_2
  blocks_->push_back(DepthwiseSeparable(sc(128), 128, 128, 128, s1, s));  // conv3_1
  blocks_->push_back(DepthwiseSeparable(sc(128), 128, 256, 128, s21, s));  // conv3_2
  blocks_->push_back(DepthwiseSeparable(sc(256), 256, 256, 256, s1, s));  // conv4_1
  blocks_->push_back(DepthwiseSeparable(sc(256), 256, 512, 256, s21, s));  // conv4_2
  for (int i = 0; i < 5; ++i)                                              // conv5 x5: 5x5 dw, no SE
    blocks_->push_back(DepthwiseSeparable(sc(512), 512, 512, 512, s1, s, 5, 2, false));
  blocks_->push_back(DepthwiseSeparable(sc(512), 512, 1024, 512, s21, s, 5, 2, true));     // conv5_6
  blocks_->push_back(DepthwiseSeparable(sc(1024), 1024, 1024, 1024, last, s, 5, 2, true));  // conv6
  register_module("block_list", blocks_);

  avg_pool_ = spec.last_pool_type == "avg";
  // PaddleOCR's max branch ignores last_pool_kernel_size (always 2x2, stride 2).
  pool_kernel_ = avg_pool_ ? std::vector<int64_t>{spec.last_pool_kernel_size.at(0), spec.last_pool_kernel_size.back()}
                           : std::vector<int64_t>{2, 2};
  out_channels_ = sc(1024);
}

torch::Tensor MobileNetV1EnhanceImpl::forward(torch::Tensor x) {
  auto y = blocks_->forward(conv1_(x));
  check_pool_input(y, pool_kernel_, "MobileNetV1Enhance", x);
  if (avg_pool_) return torch::avg_pool2d(y, pool_kernel_, pool_kernel_, {0, 0});
  return torch::max_pool2d(y, pool_kernel_, pool_kernel_, {0, 0});
}

}  // namespace ocrforge
