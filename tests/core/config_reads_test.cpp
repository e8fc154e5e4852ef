// Tests for ocrforge/core/config_reads.h: keys are known because a reader
// read them; what nothing read is reported with the closest key read beside it.
#include "ocrforge/core/config_reads.h"

#include <gtest/gtest.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

namespace {

const char* kYaml = R"(Global:
  epoch_num: 2
  use_gpu: false
Optimizer:
  name: Adam
  lr:
    name: Cosine
    learning_rate: 0.001
Train:
  dataset:
    transforms:
      - DecodeImage: {img_mode: BGR}
      - RecAug:
)";

// The readers of kYaml: what a section reader would ask for.
void read_all(const Config& c) {
  c.get<int>("Global.epoch_num", 1);
  c.get<bool>("Global.use_gpu", false);
  c.get<bool>("Global.use_amp", false);  // absent: still a known key
  c.get<std::string>("Optimizer.name", "");
  c.get<std::string>("Optimizer.lr.name", "");
  c.get<double>("Optimizer.lr.learning_rate", 0.0);
  c.get<double>("Optimizer.lr.warmup_epoch", 0.0);
  YAML::Node train, dataset, list;  // one node each: assigning a YAML::Node writes through
  if (!read_key(c.root(), "", "Train", &train) || !read_key(train, "Train", "dataset", &dataset) ||
      !read_key(dataset, "Train.dataset", "transforms", &list))
    return;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].begin()->first.Scalar();
    const std::string path = "Train.dataset.transforms[" + std::to_string(i) + "]." + name;
    note_config_read(path);
    std::string mode;
    if (name == "DecodeImage") read_key(list[i][name], path, "img_mode", &mode);
  }
}

std::vector<std::string> unknown_after_reading(const std::string& yaml) {
  const Config c = Config::from_string(yaml, "t.yml");
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    read_all(c);
  }
  return reads.unknown_keys(c.root());
}

}  // namespace

TEST(ConfigReads, EverythingReadIsKnown) {
  EXPECT_TRUE(unknown_after_reading(kYaml).empty());
}

TEST(ConfigReads, TyposAtEveryDepthSuggestTheClosestReadKey) {
  auto problems = unknown_after_reading(std::string(kYaml) + "Globall: {x: 1}\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Globall' (did you mean 'Global'?)");
  problems = unknown_after_reading("Global: {epoch_nun: 3}\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Global.epoch_nun' (did you mean 'Global.epoch_num'?)");
  // an absent key that was asked for is a suggestion too
  problems = unknown_after_reading("Optimizer: {lr: {warmup_epochs: 5}}\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Optimizer.lr.warmup_epochs' (did you mean 'Optimizer.lr.warmup_epoch'?)");
  // inside a list item, with the item's index
  problems = unknown_after_reading("Train: {dataset: {transforms: [{DecodeImage: {img_modee: BGR}}]}}\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Train.dataset.transforms[0].DecodeImage.img_modee' "
                         "(did you mean 'Train.dataset.transforms[0].DecodeImage.img_mode'?)");
  // nothing close: the keys read there
  problems = unknown_after_reading("Global: {zzzzzz: 1}\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Global.zzzzzz' (known: epoch_num, use_gpu, use_amp)");
}

TEST(ConfigReads, ASectionNobodyReadHasEveryKeyUnknown) {
  // Not "Train.loader" alone: its keys are unknown one by one (none was read).
  const auto problems = unknown_after_reading("Train: {loader: {shuffle: true}}\nMetric: {name: RecMetric}\n");
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].rfind("unknown config key 'Train.loader'", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("unknown config key 'Metric'", 0), 0u) << problems[1];
}

TEST(ConfigReads, NullValuesOfUnknownKeysAreStillUnknown) {
  const auto problems = unknown_after_reading("Global: {epoch_num: , pretrainde_model: }\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("'Global.pretrainde_model'"), std::string::npos);
}

TEST(ConfigReads, IgnoredKeysAreAcceptedAndListed) {
  const Config c = Config::from_string("Global: {epoch_num: 1, use_visualdl: false, use_visualdll: true}\n", "t.yml");
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    c.get<int>("Global.epoch_num", 1);
  }
  reads.accept_ignored({"Global.use_visualdl"});
  const auto problems = reads.unknown_keys(c.root());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Global.use_visualdll' (did you mean 'Global.use_visualdl'?)");
  EXPECT_EQ(reads.ignored_keys_present(c.root()), std::vector<std::string>{"Global.use_visualdl"});
}

TEST(ConfigReads, ExcusedSectionsAndWholeValuesAreNotWalked) {
  const Config c = Config::from_string("Global: {epoch_num: 1}\nTrain: {x: 1}\nLoss: {list: [{A: {b: 1}}]}\n", "t.yml");
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    c.get<int>("Global.epoch_num", 1);
    note_config_whole("Loss.list");
  }
  ASSERT_EQ(reads.unknown_keys(c.root()).size(), 1u);  // Train; Loss.list was taken whole
  EXPECT_EQ(reads.unknown_keys(c.root())[0].rfind("unknown config key 'Train' (", 0), 0u);
  reads.excuse("Train");
  EXPECT_TRUE(reads.unknown_keys(c.root()).empty());
}

TEST(ConfigReads, RebasedReadsCountUnderTheirRealPath) {
  const Config c = Config::from_string("Architecture: {Models: {Student: {Backbone: {scale: 0.5, sclae: 1}}}}\n", "t.yml");
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    ConfigReadRebase rebase("Architecture", "Architecture.Models.Student");
    note_config_read("Architecture.Backbone.scale");
  }
  const auto problems = reads.unknown_keys(c.root());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Architecture.Models.Student.Backbone.sclae' "
                         "(did you mean 'Architecture.Models.Student.Backbone.scale'?)");
}

TEST(ConfigReads, SeveralUnknownKeysAreReportedAtOnce) {
  const Config c = Config::from_string("Global: {epoch_nun: 1, use_gpuu: true}\n", "t.yml");
  ConfigReads reads;
  {
    ConfigReadScope scope(reads);
    c.get<int>("Global.epoch_num", 1);
    c.get<bool>("Global.use_gpu", false);
  }
  const std::string msg = test::message_of<UsageError>([&] { reads.throw_if_unknown(c.root(), c.origin()); });
  EXPECT_NE(msg.find("t.yml: 2 config problems:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\n  - unknown config key 'Global.epoch_nun' (did you mean 'Global.epoch_num'?)"), std::string::npos);
  EXPECT_NE(msg.find("\n  - unknown config key 'Global.use_gpuu' (did you mean 'Global.use_gpu'?)"), std::string::npos);
}

TEST(ConfigReads, NothingIsRecordedOutsideAScope) {
  const Config c = Config::from_string("Global: {epoch_num: 1}\n", "t.yml");
  ConfigReads reads;
  c.get<int>("Global.epoch_num", 1);
  EXPECT_EQ(reads.unknown_keys(c.root()).size(), 1u);  // Global: nothing read it
}
