// PPHGNetV2_B4 as a recognition backbone (PaddleOCR's PP-OCRv5 server
// recognizer, algorithm SVTR_HGNet: Backbone {name: PPHGNetV2_B4, text_rec:
// True}): the text_rec variant of nn/pphgnet_v2.h, then PaddleOCR's final
// pool (line_pool, rec_backbone.h). 2048 output channels.
#pragma once
#include "ocrforge/train/nn/pphgnet_v2.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class RecPPHGNetV2Impl : public RecBackboneImpl {
 public:
  explicit RecPPHGNetV2Impl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return layers_.out_channels.at(0); }
  const PPHGNetV2Layers& layers() const { return layers_; }

 private:
  PPHGNetV2Layers layers_;
};

}  // namespace ocrforge
