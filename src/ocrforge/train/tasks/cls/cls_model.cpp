#include "ocrforge/train/tasks/cls/cls_model.h"

namespace ocrforge {

ClsModelImpl::ClsModelImpl(const ClsArchSpec& spec) : spec_(spec) {
  validate_cls_arch(spec_);
  backbone_ = register_module("backbone", make_rec_backbone(spec_.backbone));
  head_ = register_module("head", ClsHead(backbone_->out_channels(), spec_.class_dim));
}

torch::Tensor ClsModelImpl::forward(torch::Tensor x) { return head_(backbone_->forward(x)); }

torch::Tensor ClsModelImpl::predict(torch::Tensor x) { return torch::softmax(forward(x), 1); }

}  // namespace ocrforge
