#include "ocrforge/train/tasks/rec/rec_pphgnet_v2.h"

namespace ocrforge {
namespace {
PPHGNetV2Spec hgnet_v2_spec(const BackboneSpec& spec) {
  PPHGNetV2Spec s;
  s.variant = "B4";
  s.det = false;
  s.text_rec = true;  // rec_arch_spec refuses text_rec: False for a recognizer
  s.in_channels = spec.in_channels;
  s.use_last_conv = spec.use_last_conv;
  s.class_expand = spec.class_expand;
  s.class_num = spec.class_num;
  return s;
}
}  // namespace

RecPPHGNetV2Impl::RecPPHGNetV2Impl(const BackboneSpec& spec) : layers_(*this, hgnet_v2_spec(spec)) {}

torch::Tensor RecPPHGNetV2Impl::forward(torch::Tensor x) {
  return line_pool(layers_.last(x), is_training(), "PPHGNetV2_B4", x);
}

}  // namespace ocrforge
