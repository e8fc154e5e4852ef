// The det schema rows agree with det_arch_from_yaml / db_loss_from_yaml:
// what the reader accepts the schema accepts, and a typo fails both.
#include "ocrforge/train/tasks/det/det_config_schema.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_arch_spec.h"

using namespace ocrforge;
using namespace ocrforge::schema;

namespace {
Field det_schema() {
  return section("", {section("Architecture", {{"model_type", Kind::String, {"rec", "det", "cls"}},
                                               {"algorithm", Kind::String},
                                               component("Transform", "rectification transform", {}),
                                               component("Backbone", "backbone", det_backbone_variants()),
                                               component("Neck", "neck", det_neck_variants()),
                                               component("Head", "head", det_head_variants())}),
                      component("Loss", "loss", det_loss_variants())});
}

// Every key the readers know, with a valid value.
const char* kAllKeys = R"(
Architecture:
  model_type: det
  algorithm: DB
  Transform:
  Backbone: {name: MobileNetV3, in_channels: 3, model_name: small, scale: 0.35, disable_se: true}
  Neck: {name: RSEFPN, out_channels: 96, shortcut: false}
  Head: {name: DBHead, k: 50}
Loss: {name: DBLoss, balance_loss: true, main_loss_type: BCELoss, alpha: 5, beta: 10, ohem_ratio: 3, eps: 1.0e-6}
)";
}  // namespace

TEST(DetConfigSchema, AcceptsWhatTheReadersAccept) {
  const auto root = YAML::Load(kAllKeys);
  const auto errors = check_config(root, det_schema());
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
  EXPECT_NO_THROW(det_arch_from_yaml(root["Architecture"]));
  EXPECT_NO_THROW(db_loss_from_yaml(root["Loss"]));

  const auto other = YAML::Load(R"(
Architecture:
  Backbone: {name: ResNet_vd, in_channels: 3, layers: 18}
  Neck: {name: DBFPN, out_channels: 256, use_asf: false}
  Head: {name: DBHead}
)");
  const auto other_errors = check_config(other, det_schema());
  EXPECT_TRUE(other_errors.empty()) << (other_errors.empty() ? "" : other_errors.front());
  EXPECT_NO_THROW(det_arch_from_yaml(other["Architecture"]));

  const auto teacher = YAML::Load(R"(
Architecture:
  Backbone: {name: ResNet_vd, in_channels: 3, layers: 50}
  Neck: {name: LKPAN, out_channels: 256, mode: lite, intracl: false}
  Head: {name: DBHead, kernel_list: [7, 2, 2], k: 50}
)");
  const auto teacher_errors = check_config(teacher, det_schema());
  EXPECT_TRUE(teacher_errors.empty()) << (teacher_errors.empty() ? "" : teacher_errors.front());
  EXPECT_NO_THROW(det_arch_from_yaml(teacher["Architecture"]));
}

TEST(DetConfigSchema, RejectsWhatTheReadersReject) {
  const auto root = YAML::Load("Architecture: {Backbone: {name: ResNet_vd, scale: 0.5}, Neck: {name: DBFPN}, "
                               "Head: {name: DBHead}}");
  const auto errors = check_config(root, det_schema());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("Architecture.Backbone.scale"), std::string::npos) << errors[0];
  EXPECT_THROW(det_arch_from_yaml(root["Architecture"]), UsageError);

  const auto loss = YAML::Load("Loss: {name: DBLoss, main_loss_type: Focal}");
  ASSERT_EQ(check_config(loss, det_schema()).size(), 1u);
  EXPECT_THROW(db_loss_from_yaml(loss["Loss"]), UsageError);
}
