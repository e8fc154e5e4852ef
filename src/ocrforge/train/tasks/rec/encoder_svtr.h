// EncoderWithSVTR (PaddleOCR ppocr/modeling/necks/rnn.py), the PP-OCRv3
// "svtr" neck. x: N x C x H x W backbone features -> N x dims x H x W:
//   h = x (detached when use_guide)
//   z = conv1 (kxk, C -> C/8) -> conv2 (1x1 -> hidden_dims)      [ConvBN + swish]
//   z = depth x global attention block over the H*W tokens -> LayerNorm (eps 1e-6)
//   z = conv3 (1x1 -> C);  z = concat(h, z) (2C)
//   z = conv4 (kxk, 2C -> C/8) -> conv1x1 (1x1 -> dims)
// use_guide detaches the input for both the shortcut and the main path, as
// PaddleOCR does (x.clone() with stop_gradient): the CTC branch then trains
// only the neck and head, the backbone learns from the other heads.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/rec_arch_spec.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"

namespace ocrforge {

class EncoderWithSVTRImpl : public torch::nn::Module {
 public:
  EncoderWithSVTRImpl(int64_t in_channels, const NeckSpec& spec);
  torch::Tensor forward(torch::Tensor x);
  int64_t out_channels() const { return out_channels_; }

 private:
  bool use_guide_ = false;
  SvtrConvBN conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr}, conv4_{nullptr}, conv1x1_{nullptr};
  torch::nn::ModuleList blocks_{nullptr};
  torch::nn::LayerNorm norm_{nullptr};
  int64_t out_channels_ = 0;
};
TORCH_MODULE(EncoderWithSVTR);

}  // namespace ocrforge
