#include "ocrforge/train/tasks/rec/rec_backbone.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/mobilenet_v1_enhance.h"
#include "ocrforge/train/tasks/rec/mobilenet_v3.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet_v2.h"
#include "ocrforge/train/tasks/rec/rec_pplcnet_v3.h"
#include "ocrforge/train/tasks/rec/rec_resnet.h"
#include "ocrforge/train/tasks/rec/svtrnet.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

std::shared_ptr<RecBackboneImpl> make_rec_backbone(const BackboneSpec& spec) {
  if (spec.name == "MobileNetV1Enhance") return std::make_shared<MobileNetV1EnhanceImpl>(spec);
  if (spec.name == "MobileNetV3") return std::make_shared<MobileNetV3Impl>(spec);
  if (spec.name == "PPLCNetV3") return std::make_shared<RecPPLCNetV3Impl>(spec);
  if (spec.name == "PPHGNet_small") return std::make_shared<RecPPHGNetImpl>(spec);
  if (spec.name == "PPHGNetV2_B4") return std::make_shared<RecPPHGNetV2Impl>(spec);
  if (spec.name == "SVTRNet") return std::make_shared<SvtrNetImpl>(spec);
  if (spec.name == "ResNet") return std::make_shared<RecResNetImpl>(spec);
  throw UsageError("Architecture.Backbone.name: unknown backbone '" + spec.name +
                   "' (known: " + arch_yaml::join(rec_backbone_names()) + ")");
}

void check_pool_input(const torch::Tensor& feat, const std::vector<int64_t>& kernel, const std::string& backbone,
                      const torch::Tensor& input) {
  if (feat.size(2) >= kernel.at(0) && feat.size(3) >= kernel.at(1)) return;
  throw UsageError(backbone + ": input " + std::to_string(input.size(2)) + "x" + std::to_string(input.size(3)) +
                   " (HxW) shrinks to " + std::to_string(feat.size(2)) + "x" + std::to_string(feat.size(3)) +
                   " before the final " + std::to_string(kernel[0]) + "x" + std::to_string(kernel[1]) +
                   " pool; use a larger image_shape or smaller backbone strides (last_conv_stride / small_stride)");
}

torch::Tensor line_pool(const torch::Tensor& feat, bool training, const std::string& backbone,
                        const torch::Tensor& input) {
  if (training) return torch::adaptive_avg_pool2d(feat, {1, 40});
  const std::vector<int64_t> k = line_pool_kernel();
  check_pool_input(feat, k, backbone, input);
  return torch::avg_pool2d(feat, k, k);
}

}  // namespace ocrforge
