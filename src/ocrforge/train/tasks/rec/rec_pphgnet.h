// PPHGNet_small as a recognition backbone (PaddleOCR's PP-OCRv4 server
// recognizer, algorithm SVTR_HGNet: Backbone {name: PPHGNet_small}): the rec
// variant of nn/pphgnet.h, then PaddleOCR's final pool (line_pool,
// rec_backbone.h). 1024 output channels.
#pragma once
#include "ocrforge/train/nn/pphgnet.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class RecPPHGNetImpl : public RecBackboneImpl {
 public:
  explicit RecPPHGNetImpl(const BackboneSpec& spec);
  torch::Tensor forward(torch::Tensor x) override;
  int64_t out_channels() const override { return layers_.out_channels.at(0); }
  const PPHGNetLayers& layers() const { return layers_; }

 private:
  PPHGNetLayers layers_;
};

}  // namespace ocrforge
