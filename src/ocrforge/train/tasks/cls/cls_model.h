// The native direction classifier: a recognition backbone (rec_backbone.h,
// child "backbone") and PaddleOCR's ClsHead (child "head"), so parameter
// names are PaddleOCR's (backbone.conv1.conv.weight, head.fc.weight) and
// .pdparams weights map by name.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/cls/cls_arch_spec.h"
#include "ocrforge/train/tasks/cls/cls_head.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"

namespace ocrforge {

class ClsModelImpl : public torch::nn::Module {
 public:
  explicit ClsModelImpl(const ClsArchSpec& spec);
  torch::Tensor forward(torch::Tensor x);  // N x 3 x H x W -> N x class_dim logits
  torch::Tensor predict(torch::Tensor x);  // softmax of forward, as PaddleOCR's eval head
  const ClsArchSpec& spec() const { return spec_; }
  const RecBackboneImpl& backbone() const { return *backbone_; }
  const ClsHeadImpl& head() const { return *head_; }

 private:
  ClsArchSpec spec_;
  std::shared_ptr<RecBackboneImpl> backbone_;
  ClsHead head_{nullptr};
};
TORCH_MODULE(ClsModel);

}  // namespace ocrforge
