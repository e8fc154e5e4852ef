// `ocrforge check -c CONFIG [-o ...]` as a user runs it: exit 0 with the
// parameter count for a config that builds, a warning (not a failure) for
// data that is not there, exit 2 naming a typo key or a backbone ocrforge
// does not build.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "test_support.h"

using namespace ocrforge;

namespace {

test::CommandResult check(const std::string& args, const std::string& name) {
  const std::string dir = test::fresh_dir(name);
  // From the repository root, where the configs' relative paths point.
  return test::run_command("cd " + test::source_dir() + " && " + test::binary() + " check " + args, dir);
}

}  // namespace

TEST(CheckConfigCli, AGoodConfigPassesAndPrintsItsParameterCount) {
  const std::string save = test::fresh_dir("check_cfg_good_save") + "/out";
  auto r = check("-c configs/rec/rec_tiny_test.yml -o Global.save_model_dir=" + save, "check_cfg_good");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(std::filesystem::exists(save)) << "check trains nothing and writes nothing";
  EXPECT_TRUE(std::regex_search(r.out, std::regex("network: [0-9,]+ parameters \\(backbone [0-9,]+, neck [0-9,]+, "
                                                  "head [0-9,]+\\)")))
      << r.out;
  EXPECT_NE(r.out.find("dictionary: configs/dicts/en_dict.txt ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ocrforge check: PASSED"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("WARNING"), std::string::npos) << r.out;
}

TEST(CheckConfigCli, AMissingDataFolderIsAWarningOnly) {
  auto r = check("-c configs/rec/rec_tiny_test.yml -o Train.dataset.data_dir=./train_data/nowhere", "check_cfg_data");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("WARNING: Train.dataset.data_dir './train_data/nowhere' does not exist"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("PASSED: the config builds; training can start once the warnings above are dealt with"),
            std::string::npos)
      << r.out;
}

TEST(CheckConfigCli, ATypoKeyFailsNamingIt) {
  auto r = check("-c configs/rec/rec_tiny_test.yml -o Global.epoch_nun=3", "check_cfg_typo");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("ocrforge check: FAILED:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Global.epoch_nun"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("epoch_num"), std::string::npos) << "did-you-mean\n" << r.out;
  EXPECT_EQ(r.out.find("PASSED"), std::string::npos) << r.out;
}

TEST(CheckConfigCli, ABackboneNotBuiltFailsNamingIt) {
  auto r = check("-c configs/rec/rec_tiny_test.yml -o Architecture.Backbone.name=ResNet45", "check_cfg_backbone");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("ocrforge check: FAILED:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ResNet45"), std::string::npos) << r.out;
}

TEST(CheckConfigCli, AMissingConfigFileFailsNamingIt) {
  auto r = check("-c configs/rec/no_such.yml", "check_cfg_missing");
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("configs/rec/no_such.yml"), std::string::npos) << r.out;
}
