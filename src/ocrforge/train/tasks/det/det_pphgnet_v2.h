// PPHGNetV2_B4 as a DB detection backbone (PaddleOCR's PP-OCRv5 server
// detector: Backbone {name: PPHGNetV2_B4, det: True}): the det variant of
// nn/pphgnet_v2.h, four stage outputs of 128, 512, 1024 and 2048 channels at
// strides 4, 8, 16, 32. Its layers are registered directly under the
// backbone (backbone.stem.stem1.conv.weight,
// backbone.stages.2.blocks.0.layers.0.conv1.conv.weight, ...), with
// PaddleOCR's unused last_conv (backbone.last_conv.weight, no fc in det) so a
// PaddleOCR state dict maps one to one; it gets no gradient.
#pragma once
#include "ocrforge/train/nn/pphgnet_v2.h"
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

class DetPPHGNetV2Impl : public DetBackboneImpl {
 public:
  explicit DetPPHGNetV2Impl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;
  const PPHGNetV2Layers& layers() const { return layers_; }

 private:
  PPHGNetV2Layers layers_;
};

}  // namespace ocrforge
