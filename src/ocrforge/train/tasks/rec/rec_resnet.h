// ResNet for recognition (PaddleOCR ppocr/modeling/backbones/rec_resnet_vd.py,
// registered for rec as "ResNet"; rec_r34_vd_none_none_ctc / _bilstm_ctc:
// layers 34): ResNet-D with text strides. The stem is three 3x3 convs (32,
// 32, 64 channels) all with stride 1, then a 3x3 max pool stride 2; four
// stages of BasicBlocks (64, 128, 256, 512 channels), the first block of
// stages 1-3 with stride (2, 1), so only the height halves; a block that
// changes the shape takes its shortcut through a (2, 1) average pool (ceil
// mode) + 1x1 conv, the very first block through a plain 1x1 conv; then a
// 2x2 max pool stride 2. 32 x 100 -> 512 x 1 x 25 (height / 32, width / 4).
// Sub-layer names as PaddleOCR: conv1_1 | conv1_2 | conv1_3 ._conv / ._batch_norm,
// bb_<stage>_<block>.conv0 | conv1 | short ._conv / ._batch_norm.
// Layers 18 and 34 only: with 50 and more PaddleOCR builds bottleneck blocks
// (2048 channels) but tells the neck 512, and fails at the first batch.
#pragma once
#include "ocrforge/train/nn/resnet_blocks.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class RecResNetImpl : public RecBackboneImpl {
 public:
  explicit RecResNetImpl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return out_channels_; }

 private:
  ResNetConvBN conv1_1_{nullptr}, conv1_2_{nullptr}, conv1_3_{nullptr};
  std::vector<ResNetBlock> blocks_;
  int64_t out_channels_ = 0;
};
TORCH_MODULE(RecResNet);

}  // namespace ocrforge
