#include "ocrforge/train/nn/paddle_init.h"

#include <cmath>

namespace ocrforge::paddle_init {
namespace {
int64_t fan_in(const torch::Tensor& w) {
  int64_t f = w.size(1);
  for (int64_t d = 2; d < w.dim(); ++d) f *= w.size(d);
  return f;
}
}  // namespace

void kaiming_normal(torch::Tensor w) {
  torch::NoGradGuard g;
  w.normal_(0.0, std::sqrt(2.0 / static_cast<double>(fan_in(w))));
}

void kaiming_uniform(torch::Tensor w) {
  torch::NoGradGuard g;
  const double limit = std::sqrt(6.0 / static_cast<double>(fan_in(w)));
  w.uniform_(-limit, limit);
}

void default_conv(torch::Tensor w, int64_t in_channels) {
  torch::NoGradGuard g;
  const int64_t k = w.dim() == 4 ? w.size(2) * w.size(3) : 1;
  w.normal_(0.0, std::sqrt(2.0 / static_cast<double>(k * in_channels)));
}

void uniform_fan(torch::Tensor w, int64_t k) {
  torch::NoGradGuard g;
  const double stdv = 1.0 / std::sqrt(static_cast<double>(k));
  w.uniform_(-stdv, stdv);
}

void trunc_normal(torch::Tensor w, double std) {
  torch::NoGradGuard g;
  // Sample u in [Phi(-2), Phi(2)] and map through the normal quantile.
  const double lo = 0.5 * (1.0 + std::erf(-2.0 / std::sqrt(2.0)));
  const double hi = 1.0 - lo;
  w.uniform_(2.0 * lo - 1.0, 2.0 * hi - 1.0);
  w.erfinv_().mul_(std * std::sqrt(2.0));
}

}  // namespace ocrforge::paddle_init
