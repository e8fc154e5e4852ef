// DBHead (PaddleOCR ppocr/modeling/heads/det_db_head.py): two identical
// branches on the neck's N x C x H/4 x W/4 map, each
//   conv kxk C -> C/4 (no bias, k = kernel_list[0], 3 by default) + BN + ReLU
//   -> ConvTranspose 2x2 stride 2 (C/4 -> C/4) + BN + ReLU
//   -> ConvTranspose 2x2 stride 2 (C/4 -> 1) -> sigmoid,
// back at the input resolution: "binarize" predicts the shrink map P,
// "thresh" the threshold map T. Sub-layer names as PaddleOCR:
// binarize | thresh .conv1 / .conv_bn1 / .conv2 / .conv_bn2 / .conv3.
#pragma once
#include <torch/torch.h>

#include <utility>

#include "ocrforge/train/tasks/det/det_arch_spec.h"

namespace ocrforge {

class DBHeadBranchImpl : public torch::nn::Module {
 public:
  // fix_nan: PaddleOCR's DetHeadSpec::fix_nan (training only).
  DBHeadBranchImpl(int64_t in_channels, int64_t conv1_kernel = 3, bool fix_nan = false);
  torch::Tensor forward(torch::Tensor x);  // N x C x h x w -> N x 1 x 4h x 4w, in (0, 1)
  // PaddleOCR's forward(x, return_f=True): the map and the hidden feature
  // after conv_bn2 + ReLU (N x C/4 x 2h x 2w), the input of conv3.
  std::pair<torch::Tensor, torch::Tensor> forward_with_feature(torch::Tensor x);

 private:
  torch::nn::Conv2d conv1_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
  torch::nn::ConvTranspose2d conv2_{nullptr}, conv3_{nullptr};
  bool fix_nan_ = false;
};
TORCH_MODULE(DBHeadBranch);

class DBHeadImpl : public torch::nn::Module {
 public:
  DBHeadImpl(int64_t in_channels, const DetHeadSpec& spec);
  // Training (is_training()): N x 3 x H x W = shrink P, threshold T and the
  // approximate binary map 1 / (1 + exp(-k (P - T))). Evaluation: the shrink
  // map alone, N x 1 x H x W (the thresh branch is not run), which is what an
  // exported inference model outputs. PFHeadLocal (det_pf_head_local.h)
  // overrides it, as PaddleOCR's PFHeadLocal subclasses DBHead.
  virtual torch::Tensor forward(torch::Tensor x);

 protected:
  // PaddleOCR's step_function: 1 / (1 + exp(-k (P - T))).
  torch::Tensor step(const torch::Tensor& shrink, const torch::Tensor& threshold) const;
  DBHeadBranch binarize_{nullptr}, thresh_{nullptr};
  double k_ = 50;
};
TORCH_MODULE(DBHead);

}  // namespace ocrforge
