#include "ocrforge/train/tasks/det/det_resnet.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

std::string DetResNetImpl::block_name(int layers, int stage, int block) {
  const std::string base = "res" + std::to_string(stage + 2);
  // The deep nets number the third stage's blocks after the first: res4a, res4b1, res4b2, ...
  if ((layers == 101 || layers == 152) && stage == 2) return base + (block == 0 ? "a" : "b" + std::to_string(block));
  return base + static_cast<char>('a' + block);
}

DetResNetImpl::DetResNetImpl(const DetBackboneSpec& spec) {
  const std::vector<int> depth = spec.layers == 200 ? std::vector<int>{} : resnet_depths(spec.layers);
  if (depth.empty())
    throw UsageError("Architecture.Backbone.layers: " + std::to_string(spec.layers) +
                     " is not supported (known: 18, 34, 50, 101, 152)");
  const bool bottleneck = spec.layers >= 50;
  const int64_t filters[] = {64, 128, 256, 512};
  conv_ = register_module("conv", ResNetConvBN(spec.in_channels, 64, 7, 2, true));
  int64_t in = 64;
  for (int b = 0; b < 4; ++b) {
    std::vector<ResNetBlock> stage;
    for (int i = 0; i < depth[b]; ++i) {
      // The first block of a stage: stride 2 from stage 1 on, and a 1x1 conv
      // shortcut with that stride (in stage 0 too, where 18 / 34 keep the shape).
      const int64_t stride = (i == 0 && b != 0) ? 2 : 1;
      ResNetBlock block(in, filters[b], stride, i == 0 ? ResNetShortcut::kConv : ResNetShortcut::kIdentity,
                        bottleneck);
      stage.push_back(register_module(block_name(spec.layers, b, i), block));
      in = block->out_channels();
    }
    stages_.push_back(std::move(stage));
    out_channels_.push_back(in);
  }
}

std::vector<torch::Tensor> DetResNetImpl::forward(torch::Tensor x) {
  x = torch::max_pool2d(conv_(x), {3, 3}, {2, 2}, {1, 1});
  std::vector<torch::Tensor> outs;
  outs.reserve(stages_.size());
  for (auto& stage : stages_) {
    for (auto& block : stage) x = block(x);
    outs.push_back(x);
  }
  return outs;
}

}  // namespace ocrforge
