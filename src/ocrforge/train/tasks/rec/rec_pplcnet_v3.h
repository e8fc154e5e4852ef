// PPLCNetV3 as a recognition backbone (PaddleOCR's PP-OCRv4 mobile
// recognizer: Backbone {name: PPLCNetV3, scale: 0.95}): the rec variant of
// nn/pplcnet_v3.h (height strides only after the stem and in blocks4 / blocks6,
// one width stride in blocks5), then PaddleOCR's final pool (line_pool,
// rec_backbone.h).
#pragma once
#include "ocrforge/train/nn/pplcnet_v3.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class RecPPLCNetV3Impl : public RecBackboneImpl {
 public:
  explicit RecPPLCNetV3Impl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return layers_.out_channels.at(0); }
  const PPLCNetV3Layers& layers() const { return layers_; }

 private:
  PPLCNetV3Layers layers_;
};

}  // namespace ocrforge
