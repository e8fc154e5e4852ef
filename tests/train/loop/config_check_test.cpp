// `ocrforge check -c`'s library part (loop/config_check.h): a config that
// builds passes with its parameter count, data that is not there is a
// warning, a typo or a component ocrforge does not build is refused naming
// it; and every PaddleOCR config copied under configs/ either passes or
// fails with a known "not built yet" reason (no crash, no other error).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/config_check.h"
#include "ocrforge/train/loop/cpu_bf16.h"
#include "ocrforge/train/loop/trainer.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

// PaddleOCR's configs name their dictionaries and data relative to the
// folder training runs from: the repository root.
class ConfigCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    old_ = fs::current_path();
    fs::current_path(test::source_dir());
  }
  void TearDown() override { fs::current_path(old_); }
  static Config tiny(const std::vector<std::string>& overrides = {}) {
    Config c = Config::load_file("configs/rec/rec_tiny_test.yml");
    c.apply_overrides(overrides);
    return c;
  }

 private:
  fs::path old_;
};

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

size_t lines_of(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

}  // namespace

TEST_F(ConfigCheck, ATinyRecConfigPassesWithItsNetworkAndDictionary) {
  const ConfigCheckReport r = check_training_config(tiny());
  EXPECT_NE(r.task.find("rec:"), std::string::npos) << r.task;
  ASSERT_EQ(r.parts.size(), 3u);  // backbone, neck, head
  int64_t sum = 0;
  for (const auto& [name, n] : r.parts) {
    EXPECT_GT(n, 0) << name;
    sum += n;
  }
  EXPECT_EQ(sum, r.parameters);
  // en_dict.txt's lines, the CTC blank and use_space_char's space.
  EXPECT_EQ(r.classes, static_cast<int>(lines_of("configs/dicts/en_dict.txt")) + 2);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  EXPECT_TRUE(contains(r.notes, "Train: data set and loader built")) << ::testing::PrintToString(r.notes);
}

TEST_F(ConfigCheck, MissingDataIsAWarningAndTheTransformsAreStillChecked) {
  const ConfigCheckReport r =
      check_training_config(tiny({"Train.dataset.data_dir=no/such/folder", "Eval.dataset.label_file_list=[no/such.txt]"}));
  EXPECT_TRUE(contains(r.warnings, "Train.dataset.data_dir 'no/such/folder' does not exist"))
      << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(contains(r.warnings, "Eval.dataset.label_file_list: 'no/such.txt' does not exist"));
  EXPECT_TRUE(contains(r.notes, "Eval: dataset, transforms and loader keys checked; the data was not read"));
  // A transform mistake is found without the data.
  const std::string msg = test::message_of<UsageError>([] {
    check_training_config(tiny({"Eval.dataset.label_file_list=[no/such.txt]", "Eval.dataset.name=PGDataSet"}));
  });
  EXPECT_NE(msg.find("Eval.dataset.name"), std::string::npos) << msg;
}

TEST_F(ConfigCheck, AUrlPretrainedModelIsAWarningAndNothingIsDownloaded) {
  const ConfigCheckReport r =
      check_training_config(tiny({"Global.pretrained_model=https://example.invalid/model.pdparams"}));
  EXPECT_TRUE(contains(r.warnings, "Global.pretrained_model is a URL")) << ::testing::PrintToString(r.warnings);
  const ConfigCheckReport m = check_training_config(tiny({"Global.pretrained_model=./pretrain_models/none"}));
  EXPECT_TRUE(contains(m.warnings, "Global.pretrained_model './pretrain_models/none' not found"));
}

TEST_F(ConfigCheck, ATypoKeyIsRefusedNamingIt) {
  Config c = tiny();
  c.set("Global.epoch_nun", 3);  // as `-o Global.epoch_nun=3` would, before validation
  const std::string msg = test::message_of<UsageError>([&] { check_training_config(c); });
  EXPECT_NE(msg.find("Global.epoch_nun"), std::string::npos) << msg;
  EXPECT_NE(msg.find("epoch_num"), std::string::npos) << "did-you-mean: " << msg;
}

TEST_F(ConfigCheck, ABackboneNotBuiltIsRefusedNamingIt) {
  const std::string msg =
      test::message_of<UsageError>([] { check_training_config(tiny({"Architecture.Backbone.name=ResNet45"})); });
  EXPECT_NE(msg.find("ResNet45"), std::string::npos) << msg;
}

// PaddleOCR's SVTRNet configs: ch_PP-OCRv4_rec_svtr_large.yml passes (SVTRNet
// large, MultiHead use_pool / use_pos, SVTRRecResizeImg in Eval) with the
// backbone's parameter count written out from PaddleOCR's layers
// (tests/train/tasks/rec/svtrnet_test.cpp). The PP-OCRv4 distillation's Teacher
// (last_stage: false without use_pool) fails in PaddleOCR and is refused,
// naming the key; with last_stage: true its networks and loss terms build
// and the check stops at its Train transforms, which lack a resize.
TEST_F(ConfigCheck, SvtrNetConfigsPassOrNameTheirProblem) {
  const ConfigCheckReport r = check_training_config(Config::load_file("configs/rec/PP-OCRv4/ch_PP-OCRv4_rec_svtr_large.yml"));
  ASSERT_FALSE(r.parts.empty());
  EXPECT_EQ(r.parts.front().first, "backbone");
  EXPECT_EQ(r.parts.front().second, 37616256);
  EXPECT_EQ(r.parameters, 64741985);
  const std::string distill = "configs/rec/PP-OCRv4/PP-OCRv4_mobile_rec_distillation.yml";
  std::string msg = test::message_of<UsageError>([&] { check_training_config(Config::load_file(distill)); });
  EXPECT_NE(msg.find("Architecture.Models.Teacher.Backbone.last_stage"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PaddleOCR fails on this config too"), std::string::npos) << msg;
  Config c = Config::load_file(distill);
  c.apply_overrides({"Architecture.Models.Teacher.Backbone.last_stage=true"});
  // Its four loss terms are built; PaddleOCR's Train transforms have no resize.
  msg = test::message_of<UsageError>([&] { check_training_config(c); });
  EXPECT_NE(msg.find("needs a RecResizeImg transform"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("unknown loss"), std::string::npos) << msg;
}

// Each PaddleOCR config (configs/paddleocr_files.txt) passes, or stops with
// problems of these kinds only: pieces ocrforge does not build yet (a
// component, a dataset, a transform, a key PaddleOCR reads that ocrforge
// does not), settings it does not support yet, or a config PaddleOCR itself
// cannot run (refused before training, saying so). Anything else (a crash, a
// torch error while building a network, a missing dictionary, a data error
// check should have made a warning) fails here. Each config's verdict is
// printed (docs/config.md's table). A config with Global.use_amp needs a CPU
// with native bf16: where this one has none, its refusal counts as a pass
// (the config is fine; the machine is not), so the table holds on every CPU.
TEST_F(ConfigCheck, EveryCopiedPaddleOcrConfigPassesOrNamesWhatIsNotBuilt) {
  std::vector<std::string> not_built = {
      "unknown backbone '", "unknown neck '", "unknown head '", "unknown dataset '", "unknown transform '",
      "unknown loss '", "unknown config key '", "is not trained by ocrforge yet", "not supported yet",
      "not supported on CPU", "PaddleOCR fails on this config too",
  };
  std::ifstream list("configs/paddleocr_files.txt");
  ASSERT_TRUE(list) << "configs/paddleocr_files.txt";
  const bool cpu_has_bf16 = !cpu_bf16_instructions().empty();
  const std::string needs_bf16 = "needs native bf16 instructions";
  if (!cpu_has_bf16) not_built.push_back(needs_bf16);
  int checked = 0, passed = 0;
  for (std::string path; std::getline(list, path);) {
    if (path.empty() || path[0] == '#') continue;
    ASSERT_TRUE(fs::exists(path)) << path;
    ++checked;
    try {
      const ConfigCheckReport r = check_training_config(Config::load_file(path));
      EXPECT_GT(r.parameters, 0) << path;
      ++passed;
      std::cout << path << ": passes, " << r.parameters << " parameters\n";
    } catch (const Error& e) {
      // One problem, or "N config problems:" and one "  - " line each.
      const std::string what = e.what();
      std::vector<std::string> problems;
      std::istringstream lines(what);
      for (std::string line; std::getline(lines, line);)
        if (line.rfind("  - ", 0) == 0) problems.push_back(line);
      if (problems.empty()) problems.push_back(what);
      if (!cpu_has_bf16 && problems.size() == 1 && what.find(needs_bf16) != std::string::npos) {
        ++passed;
        std::cout << path << ": passes on a CPU with native bf16 (this one has none: " << what << ")\n";
        continue;
      }
      for (const auto& p : problems) {
        bool known = false;
        for (const auto& k : not_built) known = known || p.find(k) != std::string::npos;
        EXPECT_TRUE(known) << path << ": not a known not-built reason: " << p;
      }
      std::cout << path << ": " << problems.size() << " problem(s), first: " << problems.front() << "\n";
    }
  }
  EXPECT_GE(checked, 51);  // the list was read
  EXPECT_GE(passed, 54);   // docs/config.md's table: none of those that pass may start failing
  std::cout << passed << " of " << checked << " pass\n";
}

// PaddleOCR's ResNet backbones (det_resnet.py, rec_resnet_vd.py): the
// rec_r34_vd_none_none_ctc TIPC config passes, with the backbone's count
// written out from PaddleOCR's layers (tests/train/tasks/rec/rec_resnet_test.cpp)
// and a CTC head over PaddleOCR's built-in 0-9a-z dictionary + blank (37);
// the ch_ppocr_server_v2_0_det one builds its ResNet 50 (+ DBFPN 256 + DBHead)
// and passes, or stops at something other than its Architecture (its Train
// transform Resize, not read yet when this was written).
TEST_F(ConfigCheck, ResNetTipcConfigsPassOrNameWhatIsNotBuilt) {
  const ConfigCheckReport r =
      check_training_config(Config::load_file("test_tipc/configs/rec_r34_vd_none_none_ctc_v2.0/rec_icdar15_train.yml"));
  ASSERT_FALSE(r.parts.empty());
  EXPECT_EQ(r.parts.front().first, "backbone");
  EXPECT_EQ(r.parts.front().second, 21308128);
  EXPECT_EQ(r.parameters, 21308128 + 512 * 37 + 37);
  const Config det = Config::load_file("test_tipc/configs/ch_ppocr_server_v2_0_det/det_r50_vd_db.yml");
  try {
    // ResNet 50 23,508,032 (det_resnet_test.cpp) + the DBFPN 256 and DBHead of det_r50_vd_db.yml.
    EXPECT_EQ(check_training_config(det).parameters, 23508032 + (25428962 - 23527264));
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find("Architecture"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Train.dataset.transforms"), std::string::npos) << msg;
  }
}

// PaddleOCR's server detectors (PPHGNet_small / PPHGNetV2_B4 det + LKPAN with
// IntraCL + PFHeadLocal) pass, with the parameter counts written out from
// PaddleOCR's definitions (tests/train/tasks/det/det_param_count_test.cpp).
TEST_F(ConfigCheck, PaddleOcrsServerDetectorsPass) {
  for (const auto& [path, parameters] : std::vector<std::pair<std::string, int64_t>>{
           {"configs/det/PP-OCRv4/PP-OCRv4_server_det.yml", 28463939},
           {"configs/det/PP-OCRv5/PP-OCRv5_server_det.yml", 26291811}}) {
    const ConfigCheckReport r = check_training_config(Config::load_file(path));
    EXPECT_NE(r.task.find("det:"), std::string::npos) << path << ": " << r.task;
    EXPECT_EQ(r.parameters, parameters) << path;
    ASSERT_EQ(r.parts.size(), 3u) << path;
    EXPECT_EQ(r.parts[0].first, "backbone");
    // A URL Global.pretrained_model: a warning, nothing downloaded.
    EXPECT_TRUE(contains(r.warnings, "Global.pretrained_model is a URL")) << ::testing::PrintToString(r.warnings);
  }
}

// A backbone's `pretrained: true` (PaddleOCR downloads ImageNet weights) is a
// warning here, as a URL pretrained_model is; training refuses it by name.
TEST_F(ConfigCheck, ABackboneDownloadIsAWarningAndTrainingRefusesIt) {
  const std::string cml = "configs/det/PP-OCRv4/PP-OCRv4_det_cml.yml";  // Student2's PPLCNetV3 has pretrained: true
  const ConfigCheckReport r = check_training_config(Config::load_file(cml));
  EXPECT_TRUE(contains(r.warnings, "Architecture.Models.Student2.Backbone.pretrained is true: PaddleOCR would "
                                   "download the backbone's ImageNet weights"))
      << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(contains(r.warnings, "set -o Architecture.Models.Student2.Backbone.pretrained=false"));
  EXPECT_FALSE(contains(r.warnings, "Architecture.Models.Student.Backbone.pretrained"));  // false: nothing to say
  Config mobile = Config::load_file("configs/det/PP-OCRv4/PP-OCRv4_mobile_det.yml");  // PPLCNetV3
  mobile.apply_overrides({"Architecture.Backbone.pretrained=true"});
  const ConfigCheckReport top = check_training_config(mobile);
  EXPECT_TRUE(contains(top.warnings, "Architecture.Backbone.pretrained is true"));
  EXPECT_TRUE(contains(top.warnings, "Global.pretrained_model"));
  // Training reads the architecture as it is written: refused, naming the key.
  Config c = Config::load_file(cml);
  c.set("Global.use_gpu", false);
  c.set_node("Architecture.Models.Teacher.pretrained", YAML::Node(YAML::NodeType::Null));  // a URL
  const std::string msg = test::message_of<UsageError>([&] { Trainer t(c, TrainerMode::Check); });
  EXPECT_NE(msg.find("Architecture.Models.Student2.Backbone.pretrained"), std::string::npos) << msg;
}
