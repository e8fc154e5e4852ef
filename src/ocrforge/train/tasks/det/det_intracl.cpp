#include "ocrforge/train/tasks/det/det_intracl.h"

#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
// A conv with bias and "same" padding for odd kernels. intracl.py builds a
// KaimingUniform initializer but passes it to no conv: every conv starts from
// Paddle's default (default_conv, zero bias).
torch::nn::Conv2d conv(int64_t in, int64_t out, int64_t kh, int64_t kw) {
  torch::nn::Conv2d c(torch::nn::Conv2dOptions(in, out, {kh, kw}).padding({kh / 2, kw / 2}).bias(true));
  paddle_init::default_conv(c->weight, in);
  torch::NoGradGuard g;
  c->bias.zero_();
  return c;
}
}  // namespace

IntraCLBlockImpl::IntraCLBlockImpl(int64_t channels, int64_t reduce_factor) {
  const int64_t c = reduce_factor > 0 ? channels / reduce_factor : 0;
  if (c < 1)
    throw Error("IntraCLBlock: " + std::to_string(channels) + " channels reduced by " +
                std::to_string(reduce_factor) + " leave none");
  conv1x1_reduce_channel = register_module("conv1x1_reduce_channel", conv(channels, c, 1, 1));
  conv1x1_return_channel = register_module("conv1x1_return_channel", conv(c, channels, 1, 1));
  // Registered in PaddleOCR's order (v, q, c) so parameters list as there.
  const int64_t k[3] = {7, 5, 3};
  for (int i = 0; i < 3; ++i)
    stages[i].v = register_module("v_layer_" + std::to_string(k[i]) + "x1", conv(c, c, k[i], 1));
  for (int i = 0; i < 3; ++i)
    stages[i].q = register_module("q_layer_1x" + std::to_string(k[i]), conv(c, c, 1, k[i]));
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(k[i]);
    stages[i].c = register_module("c_layer_" + n + "x" + n, conv(c, c, k[i], k[i]));
  }
  bn = register_module("bn", torch::nn::BatchNorm2d(channels));
}

torch::Tensor IntraCLBlockImpl::forward(torch::Tensor x) {
  torch::Tensor y = conv1x1_reduce_channel(x);
  for (auto& s : stages) y = s.c(y) + s.v(y) + s.q(y);
  return x + torch::relu(bn(conv1x1_return_channel(y)));
}

}  // namespace ocrforge
