#include "ocrforge/train/tasks/det/det_db_head.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
// PaddleOCR sets BN scale 1 and shift 1e-4 in the head.
torch::nn::BatchNorm2d head_bn(int64_t c) {
  torch::nn::BatchNorm2d bn(c);
  torch::NoGradGuard g;
  bn->weight.fill_(1.0);
  bn->bias.fill_(1e-4);
  return bn;
}

torch::nn::ConvTranspose2d up2x(int64_t in, int64_t out, int64_t bias_fan) {
  torch::nn::ConvTranspose2d c(torch::nn::ConvTranspose2dOptions(in, out, 2).stride(2));
  paddle_init::kaiming_uniform(c->weight);  // weight [in, out, 2, 2]: Paddle's fan_in = out * 4, as here
  paddle_init::uniform_fan(c->bias, bias_fan);  // get_bias_attr(C/4): U(+-1/sqrt(C/4))
  return c;
}
}  // namespace

DBHeadBranchImpl::DBHeadBranchImpl(int64_t in, int64_t conv1_kernel, bool fix_nan) : fix_nan_(fix_nan) {
  const int64_t mid = in / 4;
  conv1_ = register_module(
      "conv1",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, mid, conv1_kernel).padding(conv1_kernel / 2).bias(false)));
  paddle_init::default_conv(conv1_->weight, in);
  bn1_ = register_module("conv_bn1", head_bn(mid));
  conv2_ = register_module("conv2", up2x(mid, mid, mid));
  bn2_ = register_module("conv_bn2", head_bn(mid));
  conv3_ = register_module("conv3", up2x(mid, 1, mid));
}

std::pair<torch::Tensor, torch::Tensor> DBHeadBranchImpl::forward_with_feature(torch::Tensor x) {
  const auto nan_to_zero = [&](const torch::Tensor& y) {
    return fix_nan_ && is_training() ? torch::where(torch::isnan(y), torch::zeros_like(y), y) : y;
  };
  x = nan_to_zero(torch::relu(bn1_(conv1_(x))));
  const torch::Tensor f = nan_to_zero(torch::relu(bn2_(conv2_(x))));
  return {torch::sigmoid(conv3_(f)), f};
}

torch::Tensor DBHeadBranchImpl::forward(torch::Tensor x) { return forward_with_feature(std::move(x)).first; }

DBHeadImpl::DBHeadImpl(int64_t in_channels, const DetHeadSpec& spec) : k_(spec.k) {
  // kernel_list[1] and [2] (the transposed convs) are 2: validate_det_arch.
  const int64_t k1 = spec.kernel_list.empty() ? 3 : spec.kernel_list[0];
  binarize_ = register_module("binarize", DBHeadBranch(in_channels, k1, spec.fix_nan));
  thresh_ = register_module("thresh", DBHeadBranch(in_channels, k1, spec.fix_nan));
}

torch::Tensor DBHeadImpl::forward(torch::Tensor x) {
  auto shrink = binarize_(x);
  if (!is_training()) return shrink;
  auto threshold = thresh_(x);
  return torch::cat({shrink, threshold, step(shrink, threshold)}, 1);
}

torch::Tensor DBHeadImpl::step(const torch::Tensor& shrink, const torch::Tensor& threshold) const {
  // 1 / (1 + exp(-k (P - T))) is sigmoid(k (P - T)); torch's sigmoid does not
  // overflow where exp(-k (P - T)) would reach inf in half precision.
  return torch::sigmoid(k_ * (shrink - threshold));
}

}  // namespace ocrforge
