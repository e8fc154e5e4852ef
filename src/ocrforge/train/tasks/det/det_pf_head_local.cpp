#include "ocrforge/train/tasks/det/det_pf_head_local.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"
#include "ocrforge/train/tasks/det/det_neck.h"  // det_fpn::upsample

namespace ocrforge {

LocalModuleImpl::LocalModuleImpl(int64_t in_channels, int64_t mid_channels) {
  // Paddle's default initializers: ConvBNLayer sets none, nor does last_1.
  last_3 = register_module("last_3",
                           MV3ConvBN(in_channels + 1, mid_channels, 3, std::vector<int64_t>{1, 1}, 1, 1, "relu"));
  last_1 = register_module("last_1", torch::nn::Conv2d(torch::nn::Conv2dOptions(mid_channels, 1, 1).bias(true)));
  paddle_init::default_conv(last_1->weight, mid_channels);
  torch::NoGradGuard g;
  last_1->bias.zero_();
}

torch::Tensor LocalModuleImpl::forward(torch::Tensor x, torch::Tensor init_map) {
  return last_1(last_3(torch::cat({init_map, x}, 1)));
}

PFHeadLocalImpl::PFHeadLocalImpl(int64_t in_channels, const DetHeadSpec& spec) : DBHeadImpl(in_channels, spec) {
  int64_t mid = 0;
  if (spec.mode == "large")
    mid = in_channels / 4;
  else if (spec.mode == "small")
    mid = in_channels / 8;
  else
    throw UsageError("Architecture.Head.mode: '" + spec.mode + "' is not a PFHeadLocal mode (known: large, small)");
  cbn_layer_ = register_module("cbn_layer", LocalModule(in_channels / 4, mid));
}

torch::Tensor PFHeadLocalImpl::forward(torch::Tensor x) {
  auto [shrink, f] = binarize_->forward_with_feature(x);
  const torch::Tensor cbn = torch::sigmoid(cbn_layer_(det_fpn::upsample(f, 2), shrink));
  if (!is_training()) return 0.5 * (shrink + cbn);
  const torch::Tensor threshold = thresh_(x);
  return torch::cat({cbn, threshold, step(shrink, threshold)}, 1);
}

}  // namespace ocrforge
