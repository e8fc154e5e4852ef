#include "ocrforge/train/tasks/det/det_backbone.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_mobilenet_v3.h"
#include "ocrforge/train/tasks/det/det_pphgnet.h"
#include "ocrforge/train/tasks/det/det_pphgnet_v2.h"
#include "ocrforge/train/tasks/det/det_pplcnet_v3.h"
#include "ocrforge/train/tasks/det/det_resnet.h"
#include "ocrforge/train/tasks/det/det_resnet_vd.h"

namespace ocrforge {

std::shared_ptr<DetBackboneImpl> make_det_backbone(const DetBackboneSpec& spec) {
  if (spec.name == "MobileNetV3") return std::make_shared<DetMobileNetV3Impl>(spec);
  if (spec.name == "ResNet_vd") return std::make_shared<DetResNetVdImpl>(spec);
  if (spec.name == "ResNet") return std::make_shared<DetResNetImpl>(spec);
  if (spec.name == "PPLCNetV3") return std::make_shared<DetPPLCNetV3Impl>(spec);
  if (spec.name == "PPHGNet_small") return std::make_shared<DetPPHGNetImpl>(spec);
  if (spec.name == "PPHGNetV2_B4") return std::make_shared<DetPPHGNetV2Impl>(spec);
  throw UsageError("Architecture.Backbone.name: unknown backbone '" + spec.name + "' (known: " +
                   det_backbone_names() + ")");
}

}  // namespace ocrforge
