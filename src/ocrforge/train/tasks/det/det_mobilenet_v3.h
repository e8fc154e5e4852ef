// MobileNetV3, detection variant (PaddleOCR ppocr/modeling/backbones/
// det_mobilenet_v3.py): square strides, the blocks cut into four stages at
// the stride-2 blocks, a 1x1 conv to make_divisible(scale * 960 | 576) ending
// the last stage. Stage outputs at strides 4 / 8 / 16 / 32, e.g. large x0.5:
// 16, 24, 56, 480 channels. Sub-layer names as PaddleOCR: conv.conv /
// conv.bn (the stem), stage<i>.<j>.expand_conv | bottleneck_conv |
// mid_se.conv1|conv2 | linear_conv, and the last stage's final entry
// stage3.<n>.conv / .bn.
#pragma once
#include "ocrforge/train/tasks/det/det_backbone.h"
#include "ocrforge/train/nn/mobilenet_v3_blocks.h"

namespace ocrforge {

class DetMobileNetV3Impl : public DetBackboneImpl {
 public:
  explicit DetMobileNetV3Impl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;

 private:
  MV3ConvBN conv_{nullptr};
  std::vector<torch::nn::Sequential> stages_;
};
TORCH_MODULE(DetMobileNetV3);

}  // namespace ocrforge
