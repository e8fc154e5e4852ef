#include "ocrforge/train/tasks/rec/ctc_head.h"

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
torch::nn::Linear uniform_linear(int64_t in, int64_t out) {
  torch::nn::Linear l(in, out);
  paddle_init::uniform_fan(l->weight, in);
  paddle_init::uniform_fan(l->bias, in);
  return l;
}
}  // namespace

CTCHeadImpl::CTCHeadImpl(int64_t in_channels, const HeadSpec& spec) : out_channels_(spec.out_channels) {
  if (spec.mid_channels <= 0) {
    fc_ = register_module("fc", uniform_linear(in_channels, spec.out_channels));
  } else {
    fc1_ = register_module("fc1", uniform_linear(in_channels, spec.mid_channels));
    fc2_ = register_module("fc2", uniform_linear(spec.mid_channels, spec.out_channels));
  }
}

torch::Tensor CTCHeadImpl::forward(torch::Tensor x) { return fc_ ? fc_(x) : fc2_(fc1_(x)); }

torch::Tensor CTCHeadImpl::predict(torch::Tensor x) { return torch::softmax(forward(x), 2); }

}  // namespace ocrforge
