// A detection distillation's inference folders (det_distill_export.h).
#include "ocrforge/train/tasks/distill/det_distill_export.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model_onnx.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"

namespace ocrforge {

namespace {

// The config a member's inference.yml is written from: its own network
// section and plain DBPostProcess with the distillation's thresholds.
Config member_config(const Config& config, const DetDistillMember& m) {
  YAML::Node root = YAML::Clone(config.root());
  root["Architecture"] = YAML::Clone(m.spec.arch);
  YAML::Node post = root["PostProcess"] && root["PostProcess"].IsMap() ? YAML::Clone(root["PostProcess"])
                                                                       : YAML::Node(YAML::NodeType::Map);
  post.remove("model_name");
  post.remove("key");
  post["name"] = "DBPostProcess";
  root["PostProcess"] = post;
  return Config::from_string(YAML::Dump(root), config.origin());
}

}  // namespace

InferenceFolder export_det_distill_member(const Config& config, const DetDistillMember& m, const std::string& dir) {
  const Config member = member_config(config, m);
  return m.onnx ? write_inference_folder(dir, *m.onnx, member, nullptr)
                : write_inference_folder(dir, det_model_to_onnx(*m.native), member, nullptr);
}

}  // namespace ocrforge
