// Reading a detection distillation's CombinedLoss: PaddleOCR's own CML file,
// its accepted spellings, and errors that name the key.
#include "ocrforge/train/tasks/distill/det_distill_loss_spec.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
const std::vector<std::string> kModels = {"Student", "Student2", "Teacher"};

std::string error_of(const std::string& loss_yaml) {
  const YAML::Node n = YAML::Load(loss_yaml);
  return ocrforge::test::read_error(n, "Loss", [&] { det_distill_loss_from_yaml(n, kModels); });
}

std::string one_term(const std::string& term) { return "{name: CombinedLoss, loss_config_list: [" + term + "]}"; }
}  // namespace

TEST(DetDistillLossSpec, ReadsPaddleOcrsCmlFile) {
  const YAML::Node cfg = YAML::LoadFile(test::source_dir() + "/configs/det/PP-OCRv3/ch_PP-OCRv3_det_cml.yml");
  EXPECT_TRUE(is_det_distill_loss(cfg["Loss"]));
  const auto terms = det_distill_loss_from_yaml(cfg["Loss"], kModels);
  ASSERT_EQ(terms.size(), 3u);
  EXPECT_EQ(terms[0].kind, "DistillationDilaDBLoss");
  EXPECT_EQ(terms[0].name, "dila_dbloss");
  ASSERT_EQ(terms[0].pairs.size(), 2u);
  EXPECT_EQ(terms[0].pairs[1], (std::pair<std::string, std::string>{"Student2", "Teacher"}));
  EXPECT_TRUE(terms[0].ignored.empty());  // the file's values are DBLoss's defaults
  EXPECT_EQ(terms[1].kind, "DistillationDMLLoss");
  EXPECT_EQ(terms[1].maps_name, "thrink_maps");
  EXPECT_EQ(terms[1].map_channel(), 0);
  ASSERT_EQ(terms[1].pairs.size(), 1u);  // the flat pair [Student, Student2]
  EXPECT_EQ(terms[1].pairs[0], (std::pair<std::string, std::string>{"Student", "Student2"}));
  EXPECT_EQ(terms[1].act, "");
  EXPECT_FALSE(terms[1].use_log);
  EXPECT_EQ(terms[2].kind, "DistillationDBLoss");
  EXPECT_EQ(terms[2].name, "db");
  EXPECT_EQ(terms[2].models, (std::vector<std::string>{"Student", "Student2"}));
}

TEST(DetDistillLossSpec, DbKeysThatPaddleOcrIgnoresAreListedNotApplied) {
  const auto terms = det_distill_loss_from_yaml(
      YAML::Load(one_term("{DistillationDBLoss: {weight: 0.5, model_name_list: [Student], alpha: 8, ohem_ratio: 3}}")),
      kModels);
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_DOUBLE_EQ(terms[0].weight, 0.5);
  EXPECT_DOUBLE_EQ(terms[0].db.alpha, 5.0);  // PaddleOCR's DistillationDBLoss calls DBLoss() with its defaults
  ASSERT_EQ(terms[0].ignored.size(), 1u);
  EXPECT_EQ(terms[0].ignored[0], "alpha: 8");
}

TEST(DetDistillLossSpec, ErrorsNameTheKey) {
  const auto has = [](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find(part), std::string::npos) << "'" << error << "' lacks '" << part << "'";
  };
  has(error_of("{name: DBLoss}"), "Loss.name");
  has(error_of(one_term("{DistillationDBLoss: {model_name_list: [Student]}}")), ".weight: missing");
  has(error_of(one_term("{DistillationDBLoss: {weight: 1, model_name_list: [Pupil]}}")), "'Pupil' is not a model");
  has(error_of(one_term("{DistillationDilaDBLoss: {weight: 1, model_name_pairs: [[Student, Teacher]]}}")),
      "DistillationDilaDBLoss.key: missing");
  has(error_of(one_term("{DistillationDilaDBLoss: {weight: 1, key: head_out, model_name_pairs: [[Student, Teacher]]}}")),
      "use key: maps");
  has(error_of(one_term("{DistillationDilaDBLoss: {weight: 1, key: maps, model_name_pairs: [Student, Teacher]}}")),
      "pair of model names");
  has(error_of(one_term("{DistillationDMLLoss: {weight: 1, key: maps, maps_name: [thrink_maps], "
                        "model_name_pairs: [Student, Student2]}}")),
      "compares nothing for a list");
  has(error_of(one_term("{DistillationDMLLoss: {weight: 1, key: maps, maps_name: shrink_maps, "
                        "model_name_pairs: [Student, Student2]}}")),
      "'thrink_maps'");
  has(error_of(one_term("{DistillationDMLLoss: {weight: 1, key: maps, maps_name: thrink_maps, "
                        "model_name_pairs: [Student, Student]}}")),
      "with itself");
  has(error_of(one_term("{DistillationCTCLoss: {weight: 1, model_name_list: [Student]}}")), "recognition loss");
  has(error_of(one_term("{DistillationDBLoss: {weight: 1, model_name_list: [Student], alpa: 5}}")),
      "did you mean 'Loss.loss_config_list[0].DistillationDBLoss.alpha'");
  EXPECT_FALSE(is_det_distill_loss(YAML::Load(
      one_term("{DistillationDMLLoss: {weight: 1, act: softmax, model_name_pairs: [[Student, Teacher]]}}"))));
}
