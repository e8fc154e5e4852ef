// PPLCNetV3 as a DB detection backbone (PaddleOCR's PP-OCRv4 mobile
// detector: Backbone {name: PPLCNetV3, scale: 0.75, det: True}). Its layers
// (nn/pplcnet_v3.h) are registered directly under the backbone, so names read
// backbone.conv1.conv.weight, backbone.blocks2.0.dw_conv.conv_kxk.0.conv.weight,
// backbone.layer_list.0.weight, as in PaddleOCR.
#pragma once
#include "ocrforge/train/nn/pplcnet_v3.h"
#include "ocrforge/train/tasks/det/det_backbone.h"

namespace ocrforge {

class DetPPLCNetV3Impl : public DetBackboneImpl {
 public:
  explicit DetPPLCNetV3Impl(const DetBackboneSpec& spec);
  std::vector<torch::Tensor> forward(torch::Tensor x) override;
  const PPLCNetV3Layers& layers() const { return layers_; }

 private:
  PPLCNetV3Layers layers_;
};
TORCH_MODULE(DetPPLCNetV3);

}  // namespace ocrforge
