#include "ocrforge/train/tasks/cls/cls_arch_spec.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/core/model_type.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {
using namespace arch_yaml;

ClsArchSpec cls_arch_from_yaml(const YAML::Node& arch, const std::string& path) {
  ClsArchSpec spec;
  if (const ModelType t = read_model_type(arch, path, ModelType::Cls); t != ModelType::Cls)
    throw UsageError(path + ".model_type: '" + model_type_name(t) + "' is not a direction classifier (cls)");
  std::string algorithm = "CLS";
  read(arch, "algorithm", path, algorithm);
  if (algorithm != "CLS")
    throw UsageError(path + ".algorithm: '" + algorithm + "' is not a direction classifier (known: CLS, ONNX)");
  note_config_read(path + ".Transform");
  if (present(arch, "Transform"))
    throw UsageError(path + ".Transform: a rectification transform before the classifier is not supported yet; "
                            "set it to null");
  note_config_read(path + ".Neck");
  if (present(arch, "Neck"))
    throw UsageError(path + ".Neck: PaddleOCR's classifier has no neck (ClsHead pools the backbone's map); "
                            "set it to null");
  if (!present(arch, "Backbone")) throw UsageError(path + ".Backbone: missing");
  spec.backbone = rec_backbone_from_yaml(arch["Backbone"], path + ".Backbone");
  if (!present(arch, "Head")) throw UsageError(path + ".Head: missing (e.g. {name: ClsHead, class_dim: 2})");
  const YAML::Node head = arch["Head"];
  const std::string name = required_name(head, path + ".Head");
  if (name != "ClsHead") throw UsageError(path + ".Head.name: unknown head '" + name + "' (known: ClsHead)");
  read(head, "class_dim", path + ".Head", spec.class_dim);
  validate_cls_arch(spec);
  return spec;
}

void validate_cls_arch(const ClsArchSpec& s) {
  if (s.backbone.name == "SVTRNet")
    throw UsageError("Architecture.Backbone.name: SVTRNet as a classifier backbone is not supported yet (its fixed "
                     "input size and token output are built for recognition); use MobileNetV3, MobileNetV1Enhance, "
                     "PPLCNetV3 or a PPHGNet");
  validate_rec_backbone(s.backbone);
  if (s.class_dim < 2)
    throw UsageError("Architecture.Head.class_dim: a classifier needs at least 2 classes, got " +
                     std::to_string(s.class_dim));
}

}  // namespace ocrforge
