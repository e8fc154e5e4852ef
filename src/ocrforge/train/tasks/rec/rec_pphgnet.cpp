#include "ocrforge/train/tasks/rec/rec_pphgnet.h"

namespace ocrforge {
namespace {
PPHGNetSpec hgnet_spec(const BackboneSpec& spec) {
  PPHGNetSpec s;
  s.det = false;
  s.in_channels = spec.in_channels;
  return s;
}
}  // namespace

RecPPHGNetImpl::RecPPHGNetImpl(const BackboneSpec& spec) : layers_(*this, hgnet_spec(spec)) {}

torch::Tensor RecPPHGNetImpl::forward(torch::Tensor x) {
  return line_pool(layers_.last(x), is_training(), "PPHGNet_small", x);
}

}  // namespace ocrforge
