// MobileNetV3, recognition variant (PaddleOCR ppocr/modeling/backbones/
// rec_mobilenet_v3.py, blocks from det_mobilenet_v3.py): the downsampling
// blocks stride (s, 1) so width is kept for the sequence, then conv 1x1 to
// make_divisible(scale * 960 | 576) and a 2x2 max pool. Sub-layer names as
// PaddleOCR: conv1.conv / conv1.bn, blocks.<i>.expand_conv | bottleneck_conv |
// mid_se.conv1|conv2 | linear_conv, conv2.conv / conv2.bn.
// 32x100 -> 1x25 for large ([1,2,2,2]) and for small with small_stride
// [1,2,2,2] (ch_ppocr_mobile_v2.0); the default small_stride [2,2,2,2] needs an
// input more than 32 high (48 -> 1).
#pragma once
#include "ocrforge/train/nn/mobilenet_v3_blocks.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class MobileNetV3Impl : public RecBackboneImpl {
 public:
  explicit MobileNetV3Impl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return out_channels_; }

 private:
  MV3ConvBN conv1_{nullptr}, conv2_{nullptr};
  torch::nn::Sequential blocks_{nullptr};
  int64_t out_channels_ = 0;
};
TORCH_MODULE(MobileNetV3);

}  // namespace ocrforge
