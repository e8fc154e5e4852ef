// Common interface of the recognition backbones, so RecModel can hold either
// one under the single child name "backbone" (checkpoint keys backbone.*).
#pragma once
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge {

class RecBackboneImpl : public torch::nn::Module {
 public:
  // x: N x in_channels x H x W float (NCHW). Returns N x out_channels() x H' x W';
  // H' is 1 for the input heights the backbone is built for (32 or 48).
  virtual torch::Tensor forward(torch::Tensor x) = 0;
  virtual int64_t out_channels() const = 0;
};

// Builds spec.name (MobileNetV1Enhance | MobileNetV3 | PPLCNetV3); UsageError otherwise.
std::shared_ptr<RecBackboneImpl> make_rec_backbone(const BackboneSpec& spec);

// Throws UsageError when the feature map `feat` (N,C,h,w) before the final
// pool is smaller than `kernel`: the input image (`input`, NCHW) is too small
// for this backbone configuration. Without it LibTorch reports only
// "Output size is too small".
void check_pool_input(const torch::Tensor& feat, const std::vector<int64_t>& kernel, const std::string& backbone,
                      const torch::Tensor& input);

}  // namespace ocrforge
