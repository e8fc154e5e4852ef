// Common interface of the detection backbones, so DetModel can hold either
// one under the child name "backbone" (checkpoint keys backbone.*).
#pragma once
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "ocrforge/train/tasks/det/det_arch_spec.h"

namespace ocrforge {

class DetBackboneImpl : public torch::nn::Module {
 public:
  // x: N x in_channels x H x W float (NCHW), H and W multiples of 32.
  // Returns the four stage outputs c2..c5 at strides 4, 8, 16, 32:
  // N x out_channels()[i] x H/(4*2^i) x W/(4*2^i).
  virtual std::vector<torch::Tensor> forward(torch::Tensor x) = 0;
  const std::vector<int64_t>& out_channels() const { return out_channels_; }

 protected:
  std::vector<int64_t> out_channels_;  // one per level, filled by the constructor
};

// Builds spec.name (det_backbone_names()); UsageError otherwise.
std::shared_ptr<DetBackboneImpl> make_det_backbone(const DetBackboneSpec& spec);

}  // namespace ocrforge
