#include "ocrforge/train/tasks/rec/rec_resnet.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

RecResNetImpl::RecResNetImpl(const BackboneSpec& spec) {
  // validate_rec_backbone explains the refusal of 50 and more.
  if (spec.layers != 18 && spec.layers != 34)
    throw UsageError("Architecture.Backbone.layers: " + std::to_string(spec.layers) +
                     " is not supported for the recognition ResNet (known: 18, 34)");
  const std::vector<int> depth = resnet_depths(spec.layers);
  const int64_t filters[] = {64, 128, 256, 512};
  conv1_1_ = register_module("conv1_1", ResNetConvBN(spec.in_channels, 32, 3, 1, true));
  conv1_2_ = register_module("conv1_2", ResNetConvBN(32, 32, 3, 1, true));
  conv1_3_ = register_module("conv1_3", ResNetConvBN(32, 64, 3, 1, true));
  int64_t in = 64;
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < depth[b]; ++i) {
      // The first block of stages 1-3 halves the height only; its shortcut
      // pools (2, 1) before the 1x1 conv. The very first block (if_first)
      // keeps the shape but still takes a 1x1 conv shortcut.
      const bool first = i == 0;
      const torch::ExpandingArray<2> stride = first && b != 0 ? torch::ExpandingArray<2>({2, 1})
                                                              : torch::ExpandingArray<2>({1, 1});
      const ResNetShortcut shortcut =
          !first ? ResNetShortcut::kIdentity : (b == 0 ? ResNetShortcut::kConv : ResNetShortcut::kPoolConv);
      ResNetBlock block(in, filters[b], stride, shortcut, /*bottleneck=*/false);
      blocks_.push_back(register_module("bb_" + std::to_string(b) + "_" + std::to_string(i), block));
      in = block->out_channels();
    }
  }
  out_channels_ = in;
}

torch::Tensor RecResNetImpl::forward(torch::Tensor x) {
  torch::Tensor y = conv1_3_(conv1_2_(conv1_1_(x)));
  y = torch::max_pool2d(y, {3, 3}, {2, 2}, {1, 1});
  for (auto& block : blocks_) y = block(y);
  check_pool_input(y, {2, 2}, "ResNet", x);
  return torch::max_pool2d(y, {2, 2}, {2, 2}, {0, 0});
}

}  // namespace ocrforge
