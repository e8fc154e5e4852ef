// DB text-detection network = backbone + neck + DBHead (or its PFHeadLocal
// refinement, det_pf_head_local.h), built from a DetArchSpec. Child names "backbone", "neck", "head" make the parameter
// names (checkpoint keys, later ONNX initializer names) read like
// PaddleOCR's: backbone.stage0.0.expand_conv.conv.weight,
// neck.ins_conv.0.in_conv.weight, head.binarize.conv1.weight. Differences from
// a Paddle state dict: BatchNorm statistics are running_mean / running_var
// (Paddle: _mean / _variance) plus LibTorch's num_batches_tracked buffer.
#pragma once
#include <torch/torch.h>

#include <memory>

#include "ocrforge/train/tasks/det/det_arch_spec.h"
#include "ocrforge/train/tasks/det/det_backbone.h"
#include "ocrforge/train/tasks/det/det_db_head.h"
#include "ocrforge/train/tasks/det/det_neck.h"

namespace ocrforge {

class DetModelImpl : public torch::nn::Module {
 public:
  // Validates the spec (UsageError naming the Architecture key on bad values).
  explicit DetModelImpl(const DetArchSpec& spec);

  // x: N x in_channels x H x W float, ImageNet-normalised (NormalizeImage),
  // H and W multiples of 32 (Error otherwise). Returns, at the input
  // resolution:
  //   is_training(): N x 3 x H x W = shrink map, threshold map, binary map
  //                  (the maps DBLoss takes);
  //   eval():        N x 1 x H x W shrink map (probabilities in (0, 1)), the
  //                  input of the DB post-processing, as the inference model.
  // PFHeadLocal gives its own maps in the same shapes (det_pf_head_local.h).
  torch::Tensor forward(torch::Tensor x);

  const DetArchSpec& spec() const { return spec_; }
  std::shared_ptr<DetBackboneImpl> backbone() const { return backbone_; }
  std::shared_ptr<DetNeckImpl> neck() const { return neck_; }
  DBHead head() const { return head_; }

  // Channels-last (NHWC) memory format for the 4-D weights and, inside
  // forward, for the input, as RecModel::set_channels_last (faster depthwise
  // convolutions on CPU). Values, parameter names and saved checkpoints do
  // not change. Call before creating the optimizer.
  void set_channels_last(bool on);
  bool channels_last() const { return channels_last_; }

 private:
  DetArchSpec spec_;
  bool channels_last_ = false;
  std::shared_ptr<DetBackboneImpl> backbone_;
  std::shared_ptr<DetNeckImpl> neck_;
  DBHead head_{nullptr};
};
TORCH_MODULE(DetModel);

}  // namespace ocrforge
