#include "ocrforge/train/tasks/det/det_model.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_pf_head_local.h"

namespace ocrforge {

DetModelImpl::DetModelImpl(const DetArchSpec& spec) : spec_(spec) {
  validate_det_arch(spec_);
  backbone_ = register_module("backbone", make_det_backbone(spec_.backbone));
  neck_ = register_module("neck", make_det_neck(spec_.neck, backbone_->out_channels()));
  const int64_t c = neck_->out_channels();
  // A shared_ptr of the base type: DBHead's forwarding constructor would take a PFHeadLocalImpl one as arguments.
  std::shared_ptr<DBHeadImpl> head = spec_.head.name == "PFHeadLocal"
                                         ? std::make_shared<PFHeadLocalImpl>(c, spec_.head)
                                         : std::make_shared<DBHeadImpl>(c, spec_.head);
  head_ = register_module("head", DBHead(std::move(head)));
}

void DetModelImpl::set_channels_last(bool on) {
  torch::NoGradGuard no_grad;
  const auto format = on ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
  for (auto& p : parameters())
    if (p.dim() == 4) p.set_data(p.data().contiguous(format));
  channels_last_ = on;
}

torch::Tensor DetModelImpl::forward(torch::Tensor x) {
  if (x.dim() != 4 || x.size(1) != spec_.backbone.in_channels)
    throw Error("DetModel: expected an N x " + std::to_string(spec_.backbone.in_channels) +
                " x H x W image batch, got " + std::to_string(x.dim()) + "-D input of shape " +
                c10::str(x.sizes()));
  if (x.size(2) % 32 != 0 || x.size(3) % 32 != 0 || x.size(2) == 0 || x.size(3) == 0)
    throw Error("DetModel: input " + std::to_string(x.size(2)) + "x" + std::to_string(x.size(3)) +
                " (HxW): height and width must be positive multiples of 32 (DetResizeForTest rounds to 32; "
                "EastRandomCropData size should be too)");
  if (channels_last_) x = x.contiguous(at::MemoryFormat::ChannelsLast);
  return head_(neck_->forward(backbone_->forward(x)));
}

}  // namespace ocrforge
