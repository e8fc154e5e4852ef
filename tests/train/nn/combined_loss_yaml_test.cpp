// The CombinedLoss list reader shared by recognition and detection
// distillation: entries with their config paths, and errors naming the key.
#include "ocrforge/train/nn/combined_loss_yaml.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
// The reader's UsageError, or the keys of the Loss section it did not read.
std::string error_of(const std::string& loss_yaml) {
  const YAML::Node n = YAML::Load(loss_yaml);
  return ocrforge::test::read_error(n, "Loss", [&] { combined_loss_entries(n, "a test", "A / B", "A: {weight: 1.0}"); });
}
}  // namespace

TEST(CombinedLossYaml, EntriesKeepTheirOrderSettingsAndPaths) {
  const auto e = combined_loss_entries(
      YAML::Load("{name: CombinedLoss, loss_config_list: [{A: {weight: 2.0}}, {B: null}]}"), "a test", "A / B", "A: {}");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kind, "A");
  EXPECT_EQ(e[0].path, "Loss.loss_config_list[0].A");
  EXPECT_DOUBLE_EQ(e[0].args["weight"].as<double>(), 2.0);
  EXPECT_EQ(e[1].kind, "B");
  EXPECT_EQ(e[1].path, "Loss.loss_config_list[1].B");
}

TEST(CombinedLossYaml, ErrorsNameTheKey) {
  EXPECT_NE(error_of("{name: CTCLoss}").find("Loss.name: 'CTCLoss'; a test trains with name: CombinedLoss"),
            std::string::npos);
  EXPECT_NE(error_of("{name: CombinedLoss}").find("Loss.loss_config_list: missing or empty"), std::string::npos);
  EXPECT_NE(error_of("{name: CombinedLoss, loss_config_list: [{A: {}, B: {}}]}")
                .find("Loss.loss_config_list[0]: each entry is one loss, e.g. - A: {weight: 1.0}"),
            std::string::npos);
  EXPECT_NE(error_of("{name: CombinedLoss, loss_config_list: [{A: {}}], weight: 1}").find("unknown config key 'Loss.weight'"),
            std::string::npos);
}

TEST(CombinedLossYaml, PairsAreTwoDifferentKnownModels) {
  const std::vector<std::string> models = {"Student", "Teacher"};
  EXPECT_EQ(read_model_pair(YAML::Load("[Student, Teacher]"), "p", models),
            std::make_pair(std::string("Student"), std::string("Teacher")));
  const auto error = [&](const std::string& pair) {
    return ocrforge::test::message_of<UsageError>([&] {
      read_model_pair(YAML::Load(pair), "Loss.x.model_name_pairs", models);
    });
  };
  EXPECT_NE(error("[Student, Teacherr]").find("'Teacherr' is not a model of Architecture.Models"), std::string::npos);
  EXPECT_NE(error("[Student, Student]").find("compares a model with itself"), std::string::npos);
  EXPECT_NE(error("[Student]").find("each entry is a pair of model names"), std::string::npos);
  EXPECT_NE(error("[[Student, Teacher]]").find("each entry is a pair of model names"), std::string::npos);
}
