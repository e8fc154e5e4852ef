// PaddleOCR's IntraCLBlock (ppocr/modeling/necks/intracl.py, from I3CL),
// the block LKPAN puts on each level with intracl: true (PP-OCRv4 / v5
// server detectors). With c = channels / reduce_factor:
//   conv1x1_reduce_channel (channels -> c, 1x1, bias), then three stages,
//   each the sum of a square, a vertical and a horizontal conv (all c -> c,
//   bias, sizes keep the map): 7x7 + 7x1 + 1x7, then 5x5 + 5x1 + 1x5 on that
//   sum, then 3x3 + 3x1 + 1x3;
//   conv1x1_return_channel (c -> channels, bias), bn, ReLU;
//   output x + that (a residual: the block refines, it never replaces).
// Sub-layer names are PaddleOCR's (c_layer_7x7, v_layer_7x1, q_layer_1x7,
// ..., bn), so a PaddleOCR state dict maps by name.
#pragma once
#include <torch/torch.h>

#include <array>

namespace ocrforge {

class IntraCLBlockImpl : public torch::nn::Module {
 public:
  IntraCLBlockImpl(int64_t channels, int64_t reduce_factor);
  torch::Tensor forward(torch::Tensor x);

  // One stage: [square k x k, vertical k x 1, horizontal 1 x k]; stages 7, 5, 3 in order.
  struct Stage {
    torch::nn::Conv2d c{nullptr}, v{nullptr}, q{nullptr};
  };
  torch::nn::Conv2d conv1x1_reduce_channel{nullptr}, conv1x1_return_channel{nullptr};
  std::array<Stage, 3> stages;
  torch::nn::BatchNorm2d bn{nullptr};
};
TORCH_MODULE(IntraCLBlock);

}  // namespace ocrforge
