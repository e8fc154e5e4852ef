// PaddleOCR's CTCHead (ppocr/modeling/heads/rec_ctc_head.py): a Linear from
// the neck's channels to the CTC classes (or two, in -> mid -> out, with no
// activation between, when mid_channels > 0). Weights and biases start at
// U(+-1/sqrt(fan_in)). Names: head.fc.* or head.fc1.* / head.fc2.*.
// forward() always returns logits; PaddleOCR's eval-mode softmax lives in
// predict() so the loss never sees probabilities.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge {

class CTCHeadImpl : public torch::nn::Module {
 public:
  CTCHeadImpl(int64_t in_channels, const HeadSpec& spec);
  // x: N,T,in_channels -> logits N,T,out_channels (index 0 = CTC blank).
  torch::Tensor forward(torch::Tensor x);
  // softmax over classes: what PaddleOCR's inference model outputs (N,T,C).
  torch::Tensor predict(torch::Tensor x);
  int64_t out_channels() const { return out_channels_; }

 private:
  torch::nn::Linear fc_{nullptr}, fc1_{nullptr}, fc2_{nullptr};
  int64_t out_channels_ = 0;
};
TORCH_MODULE(CTCHead);

}  // namespace ocrforge
