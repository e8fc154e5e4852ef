// Common interface of the DB necks (feature pyramids), so DetModel can hold
// either one under the child name "neck" (checkpoint keys neck.*).
#pragma once
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "ocrforge/train/tasks/det/det_arch_spec.h"

namespace ocrforge {

class DetNeckImpl : public torch::nn::Module {
 public:
  // c: the backbone's four maps c2..c5 (NCHW, strides 4/8/16/32, each level
  // exactly half the size of the one before). Returns the fused map
  // N x out_channels() x H/4 x W/4.
  virtual torch::Tensor forward(std::vector<torch::Tensor> c) = 0;
  int64_t out_channels() const { return out_channels_; }

 protected:
  int64_t out_channels_ = 0;
};

// Builds spec.name (DBFPN | RSEFPN | LKPAN) on a backbone with `in_channels` per level.
std::shared_ptr<DetNeckImpl> make_det_neck(const DetNeckSpec& spec, const std::vector<int64_t>& in_channels);

namespace det_fpn {
// Nearest-neighbour upsampling by an integer factor (PaddleOCR's F.upsample(mode="nearest")).
torch::Tensor upsample(const torch::Tensor& x, int64_t factor);
// Throws Error naming the neck when c is not 4 maps whose sizes halve level by level
// (the input side was not a multiple of 32).
void check_levels(const std::vector<torch::Tensor>& c, const char* neck);
// The shared top-down pass: in5, out4 = in4 + up(in5), out3, out2 (finest last).
std::vector<torch::Tensor> top_down(const std::vector<torch::Tensor>& in);
}  // namespace det_fpn

}  // namespace ocrforge
