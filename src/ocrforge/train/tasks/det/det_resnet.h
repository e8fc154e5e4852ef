// ResNet for detection (PaddleOCR ppocr/modeling/backbones/det_resnet.py,
// registered for det as "ResNet"; the ch_ppocr_server_v2_0_det TIPC config
// names it with layers 50), without deformable convolutions: the plain
// ResNet stem (one 7x7 conv, 64 channels, stride 2) + 3x3 max pool stride 2,
// then four stages of residual blocks. The first block of each stage takes
// its shortcut through a 1x1 conv with the block's stride (no average pool,
// unlike ResNet_vd); the others add their input. Layers 18 / 34: BasicBlock
// (64, 128, 256, 512 channels); 50 / 101 / 152: BottleneckBlock (256, 512,
// 1024, 2048). Stage outputs at strides 4 / 8 / 16 / 32.
// Sub-layer names as PaddleOCR: conv._conv / ._batch_norm, then the blocks
// res<stage+2><a, b, c, ...> (101 / 152 name the third stage's blocks res4a,
// res4b1, res4b2, ...) with conv0 | conv1 (| conv2) | short ._conv / ._batch_norm.
#pragma once
#include <string>

#include "ocrforge/train/nn/resnet_blocks.h"
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

class DetResNetImpl : public DetBackboneImpl {
 public:
  explicit DetResNetImpl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;
  // PaddleOCR's name of block `block` of stage `stage` (0-based) for `layers`: "res2a", "res4b1", ...
  static std::string block_name(int layers, int stage, int block);

 private:
  ResNetConvBN conv_{nullptr};
  std::vector<std::vector<ResNetBlock>> stages_;
};
TORCH_MODULE(DetResNet);

}  // namespace ocrforge
