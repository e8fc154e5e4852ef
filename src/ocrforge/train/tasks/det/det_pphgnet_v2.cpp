#include "ocrforge/train/tasks/det/det_pphgnet_v2.h"

namespace ocrforge {
namespace {
PPHGNetV2Spec hgnet_v2_spec(const DetBackboneSpec& spec) {
  PPHGNetV2Spec s;
  s.variant = "B4";
  s.det = true;        // validate_det_arch refuses det: False
  s.text_rec = false;  // det_arch_spec refuses text_rec: True for a detector
  s.in_channels = spec.in_channels;
  s.use_last_conv = spec.use_last_conv;
  s.class_expand = spec.class_expand;
  return s;
}
}  // namespace

DetPPHGNetV2Impl::DetPPHGNetV2Impl(const DetBackboneSpec& spec) : layers_(*this, hgnet_v2_spec(spec)) {
  out_channels_ = layers_.out_channels;
}

std::vector<torch::Tensor> DetPPHGNetV2Impl::forward(torch::Tensor x) { return layers_.features(x); }

}  // namespace ocrforge
