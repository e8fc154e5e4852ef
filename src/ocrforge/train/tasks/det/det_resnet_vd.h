// ResNet_vd for detection (PaddleOCR ppocr/modeling/backbones/det_resnet_vd.py,
// without deformable convolutions): the "vd" stem of three 3x3 convs
// (32, 32, 64 channels, the first with stride 2) + 3x3 max pool stride 2, then
// four stages of residual blocks; a block that changes the shape takes its
// shortcut through a 2x2 average pool (stride 2) + 1x1 conv ("vd" shortcut),
// except the very first block (1x1 conv only). Layers 18 / 34: BasicBlock
// (64, 128, 256, 512 channels); 50: BottleneckBlock (256, 512, 1024, 2048).
// Stage outputs at strides 4 / 8 / 16 / 32.
// Sub-layer names as PaddleOCR: conv1_1 | conv1_2 | conv1_3 ._conv / ._batch_norm,
// bb_<stage>_<block>.conv0 | conv1 (| conv2) | short ._conv / ._batch_norm.
#pragma once
#include "ocrforge/train/nn/resnet_blocks.h"
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

class DetResNetVdImpl : public DetBackboneImpl {
 public:
  explicit DetResNetVdImpl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;

 private:
  ResNetConvBN conv1_1_{nullptr}, conv1_2_{nullptr}, conv1_3_{nullptr};
  std::vector<std::vector<ResNetBlock>> stages_;
};
TORCH_MODULE(DetResNetVd);

}  // namespace ocrforge
