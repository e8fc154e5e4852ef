// DBFPN (PaddleOCR ppocr/modeling/necks/db_fpn.py, use_asf false): per level
// a 1x1 conv to out_channels, a top-down pass (nearest x2 upsample + add),
// per level a 3x3 conv to out_channels/4, everything upsampled to stride 4
// and concatenated (p5, p4, p3, p2): N x out_channels x H/4 x W/4.
// Sub-layer names as PaddleOCR: in2_conv..in5_conv, p2_conv..p5_conv (no bias).
#pragma once
#include "ocrforge/train/tasks/det/det_neck.h"

namespace ocrforge {

class DBFPNImpl : public DetNeckImpl {
 public:
  DBFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels);
  torch::Tensor forward(std::vector<torch::Tensor> c) override;

 private:
  torch::nn::Conv2d in_[4] = {nullptr, nullptr, nullptr, nullptr};  // in2..in5
  torch::nn::Conv2d p_[4] = {nullptr, nullptr, nullptr, nullptr};   // p2..p5
};
TORCH_MODULE(DBFPN);

}  // namespace ocrforge
