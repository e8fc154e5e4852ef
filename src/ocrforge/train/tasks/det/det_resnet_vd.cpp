#include "ocrforge/train/tasks/det/det_resnet_vd.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

DetResNetVdImpl::DetResNetVdImpl(const DetBackboneSpec& spec) {
  if (spec.layers != 18 && spec.layers != 34 && spec.layers != 50)
    throw UsageError("Architecture.Backbone.layers: " + std::to_string(spec.layers) +
                     " is not supported (known: 18, 34, 50)");
  const std::vector<int> depth = resnet_depths(spec.layers);
  const bool bottleneck = spec.layers >= 50;
  const int64_t filters[] = {64, 128, 256, 512};
  conv1_1_ = register_module("conv1_1", ResNetConvBN(spec.in_channels, 32, 3, 2, true));
  conv1_2_ = register_module("conv1_2", ResNetConvBN(32, 32, 3, 1, true));
  conv1_3_ = register_module("conv1_3", ResNetConvBN(32, 64, 3, 1, true));
  int64_t in = 64;
  for (int b = 0; b < 4; ++b) {
    std::vector<ResNetBlock> stage;
    for (int i = 0; i < depth[b]; ++i) {
      // Only the first block of a stage changes the shape (and stride 2 from
      // stage 1 on); its shortcut is a 1x1 conv, behind a 2x2 average pool
      // except in the very first block (if_first: stride 1, no pool).
      const int64_t stride = (i == 0 && b != 0) ? 2 : 1;
      const ResNetShortcut shortcut =
          i != 0 ? ResNetShortcut::kIdentity : (b == 0 ? ResNetShortcut::kConv : ResNetShortcut::kPoolConv);
      ResNetBlock block(in, filters[b], stride, shortcut, bottleneck);
      stage.push_back(register_module("bb_" + std::to_string(b) + "_" + std::to_string(i), block));
      in = block->out_channels();
    }
    stages_.push_back(std::move(stage));
    out_channels_.push_back(in);
  }
}

std::vector<torch::Tensor> DetResNetVdImpl::forward(torch::Tensor x) {
  x = conv1_3_(conv1_2_(conv1_1_(x)));
  x = torch::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
  std::vector<torch::Tensor> outs;
  outs.reserve(stages_.size());
  for (auto& stage : stages_) {
    for (auto& block : stage) x = block(x);
    outs.push_back(x);
  }
  return outs;
}

}  // namespace ocrforge
