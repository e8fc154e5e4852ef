#include "ocrforge/train/tasks/det/det_pphgnet.h"

namespace ocrforge {
namespace {
PPHGNetSpec hgnet_spec(const DetBackboneSpec& spec) {
  PPHGNetSpec s;
  s.det = true;  // validate_det_arch refuses det: False
  s.in_channels = spec.in_channels;
  return s;
}
}  // namespace

DetPPHGNetImpl::DetPPHGNetImpl(const DetBackboneSpec& spec) : layers_(*this, hgnet_spec(spec)) {
  out_channels_ = layers_.out_channels;
}

std::vector<torch::Tensor> DetPPHGNetImpl::forward(torch::Tensor x) { return layers_.features(x); }

}  // namespace ocrforge
