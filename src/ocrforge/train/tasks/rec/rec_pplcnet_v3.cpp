#include "ocrforge/train/tasks/rec/rec_pplcnet_v3.h"

namespace ocrforge {
namespace {
PPLCNetV3Spec lcnet_spec(const BackboneSpec& spec) {
  PPLCNetV3Spec s;
  s.scale = spec.scale;
  s.conv_kxk_num = spec.conv_kxk_num;
  s.det = false;
  s.deploy = spec.rep_deploy;
  s.in_channels = spec.in_channels;
  return s;
}
}  // namespace

RecPPLCNetV3Impl::RecPPLCNetV3Impl(const BackboneSpec& spec) : layers_(*this, lcnet_spec(spec)) {}

torch::Tensor RecPPLCNetV3Impl::forward(torch::Tensor x) {
  return line_pool(layers_.last(x), is_training(), "PPLCNetV3", x);
}

}  // namespace ocrforge
