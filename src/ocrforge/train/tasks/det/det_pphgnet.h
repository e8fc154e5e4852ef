// PPHGNet_small as a DB detection backbone (PaddleOCR's PP-OCRv4 server
// detector: Backbone {name: PPHGNet_small, det: True}): the det variant of
// nn/pphgnet.h, four stage outputs of 256, 512, 768 and 1024 channels at
// strides 4, 8, 16, 32. Its layers are registered directly under the
// backbone, so names read backbone.stem.0.conv.weight,
// backbone.stages.2.blocks.1.layers.5.bn.weight, backbone.stages.0.blocks.0.att.conv.bias,
// as in PaddleOCR.
#pragma once
#include "ocrforge/train/nn/pphgnet.h"
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

class DetPPHGNetImpl : public DetBackboneImpl {
 public:
  explicit DetPPHGNetImpl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;
  const PPHGNetLayers& layers() const { return layers_; }

 private:
  PPHGNetLayers layers_;
};

}  // namespace ocrforge
