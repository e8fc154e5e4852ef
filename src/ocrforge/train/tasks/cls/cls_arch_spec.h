// Architecture YAML of a native direction classifier (model_type cls,
// algorithm CLS), as PaddleOCR's cls configs write it: a backbone from the
// recognition list (PaddleOCR builds cls backbones from the rec ones:
// MobileNetV3 in cls_mv3.yml, MobileNetV1Enhance in ch_PP-OCRv3_rotnet.yml),
// no neck, Head {name: ClsHead, class_dim}.
#pragma once
#include <string>

#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace YAML {
class Node;
}

namespace ocrforge {

struct ClsArchSpec {
  BackboneSpec backbone;
  int class_dim = 2;
};

// Unknown keys and names throw UsageError naming the key path.
ClsArchSpec cls_arch_from_yaml(const YAML::Node& architecture, const std::string& path = "Architecture");

// Value checks (names, class_dim >= 2); ClsModel's constructor calls it.
void validate_cls_arch(const ClsArchSpec& spec);

}  // namespace ocrforge
