// RSEFPN (PaddleOCR ppocr/modeling/necks/db_fpn.py, the PP-OCRv3 det neck):
// DBFPN's layout with every conv replaced by an RSE layer = conv (no bias)
// followed by SE, added to the conv's output when `shortcut`. Levels use a
// 1x1 RSE layer to out_channels (ins_conv.<i>), then after the top-down pass
// a 3x3 RSE layer to out_channels/4 (inp_conv.<i>); upsampled to stride 4 and
// concatenated (p5, p4, p3, p2): N x out_channels x H/4 x W/4.
// Sub-layer names as PaddleOCR: ins_conv.<i> | inp_conv.<i> .in_conv /
// .se_block.conv1|conv2 (i = 0 for c2 .. 3 for c5).
#pragma once
#include "ocrforge/train/tasks/det/det_neck.h"
#include "ocrforge/train/nn/mobilenet_v3_blocks.h"

namespace ocrforge {

class RSELayerImpl : public torch::nn::Module {
 public:
  RSELayerImpl(int64_t in, int64_t out, int64_t kernel, bool shortcut);
  torch::Tensor forward(torch::Tensor x);
  bool shortcut() const { return shortcut_; }

 private:
  torch::nn::Conv2d in_conv_{nullptr};
  MV3SE se_{nullptr};
  bool shortcut_ = true;
};
TORCH_MODULE(RSELayer);

class RSEFPNImpl : public DetNeckImpl {
 public:
  RSEFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels, bool shortcut);
  torch::Tensor forward(std::vector<torch::Tensor> c) override;

 private:
  std::vector<RSELayer> ins_, inp_;
};
TORCH_MODULE(RSEFPN);

}  // namespace ocrforge
