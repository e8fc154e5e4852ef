// The training layer's schema rows: shipped det configs and PaddleOCR's own
// det_mv3_db.yml (as PaddleOCR ships it, but for data paths) validate, and
// the det rows catch typos like the rec rows do.
#include "ocrforge/train/tasks/training_schema.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_transform_config.h"
#include "ocrforge/train/tasks/det/det_arch_spec.h"
#include "ocrforge/train/tasks/det/det_task.h"
#include "test_support.h"

using namespace ocrforge;

TEST(TrainingSchema, ShippedDetConfigsValidateAndBuild) {
  register_training_schema();
  const std::string root = test::source_dir() + "/configs/det/";
  int checked = 0;
  for (const char* name : {"det_mv3_db.yml", "det_r18_vd_db.yml", "ch_PP-OCRv3_det_student.yml", "det_tiny_test.yml"}) {
    SCOPED_TRACE(name);
    const Config c = Config::load_file(root + name);
    EXPECT_NO_THROW(c.validate());
    EXPECT_EQ(c.require<std::string>("Architecture.model_type"), "det");
    EXPECT_NO_THROW(det_arch_from_yaml(c.root()["Architecture"]));
    EXPECT_NO_THROW(db_loss_from_yaml(c.root()["Loss"]));
    EXPECT_NO_THROW(db_post_params_from_yaml(c.root()["PostProcess"]));
    EXPECT_NO_THROW(det_transform_spec_from_yaml(c.root()["Train"]["dataset"]["transforms"], "Train.dataset.transforms", true));
    EXPECT_NO_THROW(det_transform_spec_from_yaml(c.root()["Eval"]["dataset"]["transforms"], "Eval.dataset.transforms", false));
    ++checked;
  }
  EXPECT_EQ(checked, 4);
  const DetArchSpec student = det_arch_from_yaml(Config::load_file(root + "ch_PP-OCRv3_det_student.yml").root()["Architecture"]);
  EXPECT_EQ(student.neck.name, "RSEFPN");
  EXPECT_TRUE(student.backbone.disable_se);
}

TEST(TrainingSchema, PaddleOcrsOwnDetConfigKeysAreKnown) {
  register_training_schema();
  // Keys PaddleOCR's det_mv3_db.yml carries that we do not use must still pass.
  const Config c = Config::from_string(
      "Global: {use_gpu: true, load_static_weights: True, cal_metric_during_train: False, save_res_path: x}\n"
      "Architecture: {model_type: det, algorithm: DB, Transform: null,\n"
      "  Backbone: {name: MobileNetV3, scale: 0.5, model_name: large},\n"
      "  Neck: {name: DBFPN, out_channels: 256}, Head: {name: DBHead, k: 50}}\n"
      "Loss: {name: DBLoss, balance_loss: true, main_loss_type: DiceLoss, alpha: 5, beta: 10, ohem_ratio: 3}\n"
      "PostProcess: {name: DBPostProcess, thresh: 0.3, box_thresh: 0.6, max_candidates: 1000, unclip_ratio: 1.5}\n"
      "Metric: {name: DetMetric, main_indicator: hmean}\n");
  EXPECT_NO_THROW(c.validate());
}

TEST(TrainingSchema, DetTyposNameTheKey) {
  register_training_schema();
  auto problems = [](const std::string& yaml) -> std::string {
    return ocrforge::test::message_of<UsageError>([&] {
      Config::from_string(yaml).validate();
    });
  };
  EXPECT_NE(problems("Architecture: {model_type: det, Neck: {name: RSEFPN, out_chanels: 96}}").find("out_channels"),
            std::string::npos);
  EXPECT_NE(problems("PostProcess: {name: DBPostProcess, unclip_ration: 1.5}").find("unclip_ratio"), std::string::npos);
  EXPECT_NE(problems("Loss: {name: DBLoss, alfa: 5}").find("alpha"), std::string::npos);
  // The rec MobileNetV3 row keeps its own keys after the det keys were added.
  EXPECT_EQ(problems("Architecture: {model_type: rec, Backbone: {name: MobileNetV3, small_stride: [1, 2, 2, 2], "
                     "disable_se: true}}"),
            "");
}
