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
  const torch::Tensor feat = layers_.last(x);
  if (is_training()) return torch::adaptive_avg_pool2d(feat, {1, 40});
  const std::vector<int64_t> k = eval_pool_kernel();
  check_pool_input(feat, k, "PPLCNetV3", x);
  return torch::avg_pool2d(feat, k, k);
}

}  // namespace ocrforge
