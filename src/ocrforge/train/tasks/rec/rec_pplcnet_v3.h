// PPLCNetV3 as a recognition backbone (PaddleOCR's PP-OCRv4 mobile
// recognizer: Backbone {name: PPLCNetV3, scale: 0.95}): the rec variant of
// nn/pplcnet_v3.h (height strides only after the stem and in blocks4 / blocks6,
// one width stride in blocks5), then PaddleOCR's final pool, which differs
// between the modes: in training an adaptive average pool to 1 x 40, in
// eval (and in the export) an average pool of 3 x 2. For the 48 x 320 input
// both give the same 1 x 40 map; other widths give 40 steps in training and
// W / 8 in eval, as in PaddleOCR.
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
  // The eval pool's kernel (= stride), {3, 2}.
  static std::vector<int64_t> eval_pool_kernel() { return {3, 2}; }

 private:
  PPLCNetV3Layers layers_;
};

}  // namespace ocrforge
