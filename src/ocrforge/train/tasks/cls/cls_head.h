// PaddleOCR's ClsHead (ppocr/modeling/heads/cls_head.py): global average
// pool of the backbone's map, then one Linear `fc` to class_dim scores. The
// forward gives the logits in both modes (ClsLoss is a cross entropy on
// them); PaddleOCR's eval softmax is applied by ClsModel::predict and by the
// export.
#pragma once
#include <torch/torch.h>

namespace ocrforge {

class ClsHeadImpl : public torch::nn::Module {
 public:
  ClsHeadImpl(int64_t in_channels, int64_t class_dim);
  torch::Tensor forward(torch::Tensor x);  // N x C x H x W -> N x class_dim
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ClsHead);

}  // namespace ocrforge
