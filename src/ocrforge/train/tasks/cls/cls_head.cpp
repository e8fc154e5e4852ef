#include "ocrforge/train/tasks/cls/cls_head.h"

#include <cmath>

namespace ocrforge {

ClsHeadImpl::ClsHeadImpl(int64_t in_channels, int64_t class_dim) {
  fc = register_module("fc", torch::nn::Linear(in_channels, class_dim));
  // PaddleOCR: weight Uniform(-1/sqrt(in), 1/sqrt(in)), bias Paddle's default 0.
  const double stdv = 1.0 / std::sqrt(static_cast<double>(in_channels));
  torch::NoGradGuard g;
  fc->weight.uniform_(-stdv, stdv);
  fc->bias.zero_();
}

torch::Tensor ClsHeadImpl::forward(torch::Tensor x) { return fc(x.mean({2, 3})); }

}  // namespace ocrforge
