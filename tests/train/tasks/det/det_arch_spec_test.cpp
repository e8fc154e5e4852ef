// det_arch_from_yaml / db_loss_from_yaml: PaddleOCR's own det Architecture
// and Loss sections parse to the right spec (PaddleOCR's defaults for omitted
// keys); bad names, keys and values fail naming the key path.
#include "ocrforge/train/tasks/det/det_arch_spec.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
// The reader's error, or the keys it left unread, as a run reports them.
std::string arch_error(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
}

std::string loss_error(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Loss", [&] { db_loss_from_yaml(n); });
}

// PaddleOCR's configs/det/det_mv3_db.yml Architecture.
const char* kMv3Db = R"(
model_type: det
algorithm: DB
Transform:
Backbone:
  name: MobileNetV3
  scale: 0.5
  model_name: large
Neck:
  name: DBFPN
  out_channels: 256
Head:
  name: DBHead
  k: 50
)";

// PaddleOCR's ch_PP-OCRv3_det_student.yml Architecture (Student sub-model).
const char* kPPOCRv3Student = R"(
model_type: det
algorithm: DB
Transform:
Backbone:
  name: MobileNetV3
  scale: 0.5
  model_name: large
  disable_se: True
Neck:
  name: RSEFPN
  out_channels: 96
  shortcut: True
Head:
  name: DBHead
  k: 50
)";
}  // namespace

TEST(DetArchSpec, ReadsDetMv3Db) {
  const auto s = det_arch_from_yaml(YAML::Load(kMv3Db));
  EXPECT_EQ(s.algorithm, "DB");
  EXPECT_EQ(s.backbone.name, "MobileNetV3");
  EXPECT_EQ(s.backbone.model_name, "large");
  EXPECT_DOUBLE_EQ(s.backbone.scale, 0.5);
  EXPECT_FALSE(s.backbone.disable_se);
  EXPECT_EQ(s.neck.name, "DBFPN");
  EXPECT_EQ(s.neck.out_channels, 256);
  EXPECT_EQ(s.head.k, 50);
}

TEST(DetArchSpec, ReadsPPOCRv3Student) {
  const auto s = det_arch_from_yaml(YAML::Load(kPPOCRv3Student));
  EXPECT_TRUE(s.backbone.disable_se);
  EXPECT_EQ(s.neck.name, "RSEFPN");
  EXPECT_EQ(s.neck.out_channels, 96);
  EXPECT_TRUE(s.neck.shortcut);
}

TEST(DetArchSpec, OmittedKeysTakePaddleOCRDefaults) {
  const auto s = det_arch_from_yaml(YAML::Load(R"(
model_type: det
algorithm: DB
Backbone: {name: MobileNetV3}
Neck: {name: RSEFPN}
Head: {name: DBHead}
)"));
  EXPECT_EQ(s.backbone.model_name, "large");
  EXPECT_DOUBLE_EQ(s.backbone.scale, 0.5);
  EXPECT_EQ(s.backbone.in_channels, 3);
  EXPECT_EQ(s.neck.out_channels, 256);  // no PaddleOCR default: det_mv3_db.yml's value
  EXPECT_TRUE(s.neck.shortcut);
  EXPECT_EQ(s.head.k, 50);
  const auto r = det_arch_from_yaml(YAML::Load("{algorithm: DB, Backbone: {name: ResNet_vd}, Neck: {name: DBFPN}, "
                                               "Head: {name: DBHead}}"));
  EXPECT_EQ(r.backbone.layers, 50);  // PaddleOCR's ResNet_vd default
}

TEST(DetArchSpec, ScaleIsReadAsDouble) {
  const auto s = det_arch_from_yaml(
      YAML::Load("{Backbone: {name: MobileNetV3, scale: 0.35}, Neck: {name: DBFPN}, Head: {name: DBHead}}"));
  EXPECT_EQ(s.backbone.scale, 0.35);  // exactly the double 0.35, not the float 0.34999999
}

TEST(DetArchSpec, ErrorsNameTheKey) {
  const std::string base = "{Backbone: {name: MobileNetV3}, Neck: {name: DBFPN}, Head: {name: DBHead}}";
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3, sclae: 0.5}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("unknown config key 'Architecture.Backbone.sclae' (did you mean 'Architecture.Backbone.scale'?)"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3, scale: 0.4}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("Architecture.Backbone.scale"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3, scale: half}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("Architecture.Backbone.scale"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: ResNet_vd, layers: 101}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("Architecture.Backbone.layers: 101 is not supported (known: 18, 34, 50)"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: ResNet_vd, dcn_stage: [False, True, True, True]}, Neck: {name: DBFPN}, "
                       "Head: {name: DBHead}}")
                .find("Architecture.Backbone.dcn_stage: deformable convolutions (DCNv2, True for stage 1) are not "
                      "supported yet"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: ResNet_SAST}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("Architecture.Backbone.name: unknown backbone 'ResNet_SAST' (known: MobileNetV3, ResNet_vd, ResNet, "
                      "PPLCNetV3, PPHGNet_small, PPHGNetV2_B4)"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3}, Neck: {name: FCEFPN}, Head: {name: DBHead}}")
                .find("Architecture.Neck.name: unknown neck 'FCEFPN' (known: DBFPN, RSEFPN, LKPAN)"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3}, Neck: {name: DBFPN, out_channels: 30}, Head: {name: DBHead}}")
                .find("Architecture.Neck.out_channels"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3}, Neck: {name: DBFPN, use_asf: true}, Head: {name: DBHead}}")
                .find("Architecture.Neck.use_asf"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3}, Neck: {name: DBFPN}, Head: {name: DBHead, k: 0}}")
                .find("Architecture.Head.k"),
            std::string::npos);
  EXPECT_NE(arch_error("{Backbone: {name: MobileNetV3}, Head: {name: DBHead}}").find("Architecture.Neck: missing"),
            std::string::npos);
  EXPECT_NE(arch_error("{model_type: rec, Backbone: {name: MobileNetV3}, Neck: {name: DBFPN}, Head: {name: DBHead}}")
                .find("Architecture.model_type"),
            std::string::npos);
  EXPECT_EQ(arch_error(base), "");
}

TEST(DBLossSpec, ReadsPaddleOCRLossSection) {
  const auto s = db_loss_from_yaml(YAML::Load(R"(
name: DBLoss
balance_loss: true
main_loss_type: DiceLoss
alpha: 5
beta: 10
ohem_ratio: 3
)"));
  EXPECT_TRUE(s.balance_loss);
  EXPECT_EQ(s.main_loss_type, "DiceLoss");
  EXPECT_DOUBLE_EQ(s.alpha, 5.0);
  EXPECT_DOUBLE_EQ(s.beta, 10.0);
  EXPECT_DOUBLE_EQ(s.ohem_ratio, 3.0);
  EXPECT_DOUBLE_EQ(s.eps, 1e-6);
  EXPECT_EQ(db_loss_from_yaml(YAML::Load("{name: DBLoss, main_loss_type: BCELoss}")).main_loss_type, "BCELoss");
}

TEST(DBLossSpec, ErrorsNameTheKey) {
  EXPECT_NE(loss_error("{name: DBLoss, ohem_ration: 3}").find("unknown config key 'Loss.ohem_ration' (did you mean 'Loss.ohem_ratio'?)"),
            std::string::npos);
  EXPECT_NE(loss_error("{name: DBLoss, main_loss_type: Focal}").find("Loss.main_loss_type: unknown loss 'Focal'"),
            std::string::npos);
  EXPECT_NE(loss_error("{name: DBLoss, alpha: x}").find("Loss.alpha"), std::string::npos);
  EXPECT_NE(loss_error("{name: CTCLoss}").find("Loss.name"), std::string::npos);
  EXPECT_NE(loss_error("{alpha: 5}").find("Loss.name: missing"), std::string::npos);
}
