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
  // H' is 1 for the input heights the backbone is built for (32 or 48), or
  // 3 for SVTRNet without last_stage (pooled by MultiHead's use_pool).
  virtual torch::Tensor forward(torch::Tensor x) = 0;
  virtual int64_t out_channels() const = 0;
};

// Builds spec.name (one of rec_backbone_names()); UsageError otherwise.
std::shared_ptr<RecBackboneImpl> make_rec_backbone(const BackboneSpec& spec);

// Throws UsageError when the feature map `feat` (N,C,h,w) before the final
// pool is smaller than `kernel`: the input image (`input`, NCHW) is too small
// for this backbone configuration. Without it LibTorch reports only
// "Output size is too small".
void check_pool_input(const torch::Tensor& feat, const std::vector<int64_t>& kernel, const std::string& backbone,
                      const torch::Tensor& input);

// The final pool of PaddleOCR's PPLCNetV3 / PPHGNet rec backbones, which
// differs between the modes: in training an adaptive average pool to 1 x 40,
// in eval (and in the export) an average pool of line_pool_kernel() = 3 x 2.
// For a 3 x 80 map (48 x 320 input) both give 1 x 40; other widths give 40
// steps in training and W / 8 in eval, as in PaddleOCR.
torch::Tensor line_pool(const torch::Tensor& feat, bool training, const std::string& backbone,
                        const torch::Tensor& input);
inline std::vector<int64_t> line_pool_kernel() { return {3, 2}; }

}  // namespace ocrforge
