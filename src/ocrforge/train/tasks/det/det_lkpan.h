// LKPAN (PaddleOCR ppocr/modeling/necks/db_fpn.py, the PP-OCRv3 CML
// teacher's neck: "large kernel PAN"): DBFPN's lateral 1x1 convs and
// top-down pass, then 9x9 convs to out_channels/4 per level (inp_conv), a
// bottom-up path (pan_head_conv: 3x3 stride-2 convs, f(l) + down(pan(l-1)))
// and a 9x9 conv per level on that path (pan_lat_conv); upsampled to stride
// 4 and concatenated (p5, p4, p3, p2): N x out_channels x H/4 x W/4.
// mode "large": the 9x9 layers are plain convs (no bias); "lite": each is a
// DSConv (depthwise 9x9 + BN, 1x1 to 4x + BN + ReLU, 1x1 to out, plus a 1x1
// shortcut conv when the width changes).
// intracl (PP-OCRv4 / v5 server detectors): an IntraCLBlock(out_channels/4,
// reduce factor 2) on each level's pan_lat output, before the upsampling.
// Sub-layer names as PaddleOCR: ins_conv.<i>, inp_conv.<i>, pan_head_conv.<i-1>,
// pan_lat_conv.<i> (i = 0 for c2 .. 3 for c5), incl1 (c2) .. incl4 (c5);
// DSConv: conv1 / bn1 / conv2 / bn2 / conv3 / conv_end.
#pragma once
#include "ocrforge/train/tasks/det/det_intracl.h"
#include "ocrforge/train/tasks/det/det_neck.h"

namespace ocrforge {

// PaddleOCR's DSConv (if_act true, act relu, stride 1).
class DSConvImpl : public torch::nn::Module {
 public:
  DSConvImpl(int64_t in, int64_t out, int64_t kernel, int64_t padding);
  torch::Tensor forward(torch::Tensor x);
  bool has_shortcut() const { return static_cast<bool>(conv_end_); }

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr}, conv_end_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
};
TORCH_MODULE(DSConv);

class LKPANImpl : public DetNeckImpl {
 public:
  LKPANImpl(const std::vector<int64_t>& in_channels, int64_t out_channels, const std::string& mode,
            bool intracl = false);
  torch::Tensor forward(std::vector<torch::Tensor> c) override;
  bool lite() const { return lite_; }
  // The IntraCL block of level i (0 = c2, PaddleOCR's incl1); empty without intracl.
  const std::vector<IntraCLBlock>& incl() const { return incl_; }

 private:
  // A 9x9 layer: plain conv i of `convs` (large) or DSConv i of `ds` (lite).
  torch::Tensor large_kernel(std::vector<torch::nn::Conv2d>& convs, std::vector<DSConv>& ds, size_t i,
                             const torch::Tensor& x);
  std::vector<torch::nn::Conv2d> ins_, pan_head_;
  std::vector<torch::nn::Conv2d> inp_conv_, pan_lat_conv_;  // large
  std::vector<DSConv> inp_ds_, pan_lat_ds_;                 // lite
  std::vector<IntraCLBlock> incl_;                          // intracl
  bool lite_ = false;
};
TORCH_MODULE(LKPAN);

}  // namespace ocrforge
