#include "ocrforge/train/tasks/det/det_pplcnet_v3.h"

namespace ocrforge {
namespace {
PPLCNetV3Spec lcnet_spec(const DetBackboneSpec& spec) {
  PPLCNetV3Spec s;
  s.scale = spec.scale;
  s.conv_kxk_num = spec.conv_kxk_num;
  s.det = true;
  s.deploy = spec.rep_deploy;
  s.in_channels = spec.in_channels;
  return s;
}
}  // namespace

DetPPLCNetV3Impl::DetPPLCNetV3Impl(const DetBackboneSpec& spec) : layers_(*this, lcnet_spec(spec)) {
  out_channels_ = layers_.out_channels;
}

std::vector<torch::Tensor> DetPPLCNetV3Impl::forward(torch::Tensor x) { return layers_.features(x); }

}  // namespace ocrforge
