// Tests for the unknown-key check of a training run (train/loop/config_keys.h,
// check_config_keys in trainer.h): every config we ship reads with no unknown
// key, a typo at any depth is named with the closest key a reader read, and
// PaddleOCR keys ocrforge ignores are accepted and listed.
#include "ocrforge/train/loop/config_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/trainer.h"
#include "test_support.h"

using ocrforge::Config;
using ocrforge::UsageError;
namespace fs = std::filesystem;

namespace {

inline testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "'" << text << "'\n  does not contain\n'" << part << "'";
}

// Configs name their files relative to the repository (tests/data/..., models/...).
void in_source_dir() { fs::current_path(ocrforge::test::source_dir()); }

std::string tiny_path() { return ocrforge::test::source_dir() + "/configs/rec/rec_tiny_test.yml"; }

// The tiny test config with `overrides` applied, read as a run reads it;
// returns the UsageError's message ("" when the config reads cleanly).
std::string problems_after(const std::vector<std::string>& overrides) {
  in_source_dir();
  Config c = Config::load_file(tiny_path());
  return ocrforge::test::message_of<UsageError>([&] {
    c.apply_overrides(overrides);
    ocrforge::check_config_keys(c);
  });
}

// The tiny test config with `yaml` (new top-level sections) appended, read
// as a run reads it.
std::string problems_of(const std::string& yaml) {
  in_source_dir();
  std::ifstream in(tiny_path());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return ocrforge::test::message_of<UsageError>([&] {
    ocrforge::check_config_keys(Config::from_string(text + "\n" + yaml, "t.yml"));
  });
}

}  // namespace

TEST(ConfigKeys, ShippedConfigsLoadAndValidate) {
  const std::string root = ocrforge::test::source_dir() + "/configs/rec/";
  for (const char* name : {"en_PP-OCRv3_mobile_rec.yml", "ch_PP-OCRv3_mobile_rec.yml",
                           "rec_tiny_test.yml", "en_CRNN_mobilenetv3_rec.yml"}) {
    SCOPED_TRACE(name);
    const Config c = Config::load_file(root + name);
    EXPECT_EQ(c.require<std::string>("Architecture.model_type"), "rec");
    EXPECT_EQ(c.require<std::string>("Architecture.Head.name"), "CTCHead");
    EXPECT_EQ(c.get<int>("Global.max_text_length", 0), 25);
    EXPECT_TRUE(c.get<bool>("Global.use_space_char", false));
    // Every dictionary we point at exists (ppocr_keys_v1.txt comes with the models).
    const std::string dict = c.require<std::string>("Global.character_dict_path");
    if (dict.rfind("models/", 0) != 0) {
      EXPECT_TRUE(std::ifstream(ocrforge::test::source_dir() + "/" + dict).good()) << dict;
    }
  }
}

TEST(ConfigKeys, ShippedConfigsHaveTheDocumentedModels) {
  const std::string root = ocrforge::test::source_dir() + "/configs/rec/";
  const Config v3 = Config::load_file(root + "en_PP-OCRv3_mobile_rec.yml");
  EXPECT_EQ(v3.require<std::string>("Architecture.Backbone.name"), "MobileNetV1Enhance");
  EXPECT_DOUBLE_EQ(v3.require<double>("Architecture.Backbone.scale"), 0.5);
  EXPECT_EQ(v3.require<std::vector<int>>("Architecture.Backbone.last_conv_stride"), (std::vector<int>{1, 2}));
  EXPECT_EQ(v3.require<std::string>("Architecture.Neck.encoder_type"), "svtr");
  EXPECT_FALSE(v3.require<bool>("Architecture.Neck.use_guide"));  // CTC-only head: use_guide would freeze the backbone
  EXPECT_DOUBLE_EQ(v3.require<double>("Architecture.Head.fc_decay"), 1e-5);
  EXPECT_DOUBLE_EQ(v3.require<double>("Optimizer.lr.learning_rate"), 0.001);
  EXPECT_DOUBLE_EQ(v3.require<double>("Optimizer.regularizer.factor"), 3e-5);
  EXPECT_EQ(v3.require<int>("Train.loader.batch_size_per_card"), 128);
  EXPECT_EQ(v3.root()["Train"]["dataset"]["transforms"][3]["RecResizeImg"]["image_shape"].as<std::vector<int>>(),
            (std::vector<int>{3, 48, 320}));
  const Config ch = Config::load_file(root + "ch_PP-OCRv3_mobile_rec.yml");
  EXPECT_EQ(ch.require<std::string>("Global.character_dict_path"), "models/PP-OCRv4/ppocr_keys_v1.txt");
  const Config tiny = Config::load_file(root + "rec_tiny_test.yml");
  EXPECT_EQ(tiny.require<int>("Global.epoch_num"), 2);
  EXPECT_EQ(tiny.require<std::vector<int>>("Global.eval_batch_step"), (std::vector<int>{0, 20}));
  EXPECT_EQ(tiny.require<int>("Train.loader.num_workers"), 0);
  EXPECT_EQ(tiny.require<std::string>("Train.dataset.data_dir"), "tests/data/rec_toy");
  const Config crnn = Config::load_file(root + "en_CRNN_mobilenetv3_rec.yml");
  EXPECT_EQ(crnn.require<std::vector<int>>("Architecture.Backbone.small_stride"), (std::vector<int>{1, 2, 2, 2}));
  EXPECT_EQ(crnn.require<int>("Architecture.Neck.hidden_size"), 96);
}

TEST(ConfigKeys, EnglishDictionaryIsPaddleOCRsPrintableAscii) {
  // PaddleOCR's en_dict.txt: the 95 printable ASCII characters, one per line,
  // the space last; with use_space_char that gives its English models' 97 classes.
  std::ifstream in(ocrforge::test::source_dir() + "/configs/dicts/en_dict.txt");
  std::set<char> seen;
  std::string line, last;
  while (std::getline(in, line)) {
    ASSERT_EQ(line.size(), 1u) << "'" << line << "'";
    EXPECT_TRUE(line[0] >= ' ' && line[0] < 127) << line;
    EXPECT_TRUE(seen.insert(line[0]).second) << "duplicate " << line;
    last = line;
  }
  EXPECT_EQ(seen.size(), 95u);
  EXPECT_EQ(last, " ");
  EXPECT_EQ(ocrforge::Charset::load(ocrforge::test::source_dir() + "/configs/dicts/en_dict.txt", true).num_classes(), 97);
}

TEST(ConfigKeys, UnknownKeyNamesFullPathAndClosestKey) {
  EXPECT_EQ(problems_after({"Optimizer.lr.warmup_epochs=5"}),
            ocrforge::test::source_dir() + "/configs/rec/rec_tiny_test.yml: unknown config key "
            "'Optimizer.lr.warmup_epochs' (did you mean 'Optimizer.lr.warmup_epoch'?)");
  EXPECT_TRUE(contains(problems_after({"Global.zzzzzz=1"}),
                       "unknown config key 'Global.zzzzzz' (known: use_gpu, use_xpu, "));
  EXPECT_TRUE(contains(problems_of("Globall:\n  epoch_num: 1\n"),
                       "unknown config key 'Globall' (did you mean 'Global'?)"));
}

// Component names are checked by the component's reader.
TEST(ConfigKeys, UnknownComponentNameListsKnownNames) {
  EXPECT_TRUE(contains(problems_after({"Architecture.Backbone.name=MobileNetV5"}),
                       "Architecture.Backbone.name: unknown backbone 'MobileNetV5' (known: MobileNetV1Enhance, "
                       "MobileNetV3, PPLCNetV3, PPHGNet_small, PPHGNetV2_B4, SVTRNet, ResNet)"));
  EXPECT_TRUE(contains(problems_after({"Optimizer.lr.name=Cosin"}), "Optimizer.lr.name"));
  EXPECT_TRUE(contains(problems_after({"Optimizer.lr.name=Cosin"}), "Cosin"));
  EXPECT_TRUE(contains(problems_after({"Loss.name="}), "Loss.name"));
  EXPECT_TRUE(contains(problems_after({"Architecture.Transform={name: TPS}"}), "Architecture.Transform"));
}

TEST(ConfigKeys, KeysDependOnTheComponentName) {
  EXPECT_EQ(problems_after({"Architecture.Backbone.disable_se=true"}), "");  // a MobileNetV3 key
  EXPECT_TRUE(contains(problems_after({"Architecture.Backbone.last_pool_type=avg"}),
                       "unknown config key 'Architecture.Backbone.last_pool_type'"));
  EXPECT_EQ(problems_after({"Optimizer.name=AdamW", "Optimizer.weight_decay=0.05"}), "");
  EXPECT_TRUE(contains(problems_after({"Optimizer.weight_decay=0.05"}),
                       "unknown config key 'Optimizer.weight_decay'"));  // Adam has none
  EXPECT_EQ(problems_after({"Optimizer.clip_norm=10"}), "");  // shared by all optimizers
}

TEST(ConfigKeys, WrongKindsNameKeyAndExpectedKind) {
  EXPECT_TRUE(contains(problems_after({"Global.epoch_num={a: 1}"}),
                       "config key 'Global.epoch_num' must be an integer, got a map"));
  EXPECT_TRUE(contains(problems_after({"Global.use_gpu=maybe"}),
                       "config key 'Global.use_gpu' must be a boolean (true/false), got 'maybe'"));
  EXPECT_TRUE(contains(problems_after({"Optimizer.lr.learning_rate=fast"}),
                       "config key 'Optimizer.lr.learning_rate' must be a number, got 'fast'"));
  EXPECT_TRUE(contains(problems_after({"Global.save_model_dir=[a, b]"}),
                       "config key 'Global.save_model_dir' must be a string, got a list"));
  EXPECT_TRUE(contains(problems_after({"Architecture.model_type=ocr"}),
                       "config key 'Architecture.model_type' must be one of rec, det, cls, got 'ocr'"));
  EXPECT_TRUE(contains(problems_after({"Train.loader=16"}),
                       "config key 'Train.loader' must be a map, got '16'"));
}

TEST(ConfigKeys, NumbersBoolsAndListsAcceptPaddleOcrForms) {
  for (const char* v : {"0.001", "1e-3", "1.0e-3", "3"})
    EXPECT_EQ(problems_after({std::string("Optimizer.lr.learning_rate=") + v}), "") << v;
  for (const char* v : {"true", "True", "FALSE", "yes", "off", "1"})
    EXPECT_EQ(problems_after({std::string("Global.use_gpu=") + v}), "") << v;
  EXPECT_EQ(problems_after({"Global.eval_batch_step=2000"}), "");
  EXPECT_EQ(problems_after({"Global.eval_batch_step=[0, 2000]"}), "");
  EXPECT_TRUE(contains(problems_after({"Global.eval_batch_step=[0]"}),
                       "must be an integer or a list of 2 integers, got a list"));
  EXPECT_TRUE(contains(problems_after({"Global.eval_batch_step=[0, x]"}), "'Global.eval_batch_step[1]'"));
  EXPECT_EQ(problems_after({"Train.dataset.label_file_list=tests/data/rec_toy/rec_gt.txt"}), "");
  EXPECT_EQ(problems_after({"Train.dataset.label_file_list=[tests/data/rec_toy/rec_gt.txt, tests/data/rec_toy/rec_gt.txt]",
                            "Train.dataset.ratio_list=[0.5, 1.0]"}),
            "");
  EXPECT_EQ(problems_after({"Global.epoch_num=2.5"}).empty(), false);
}

TEST(ConfigKeys, TransformListsAreCheckedPerTransform) {
  in_source_dir();
  auto with_transform = [](const std::string& name, const std::string& params) {
    Config c = Config::load_file(tiny_path());
    YAML::Node list = c.root()["Train"]["dataset"]["transforms"];
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i].begin()->first.Scalar() == name) list[i][name] = YAML::Load(params);
    return ocrforge::test::message_of<UsageError>([&] { ocrforge::check_config_keys(c); });
  };
  EXPECT_EQ(with_transform("DecodeImage", "{img_mode: BGR, channel_first: false}"), "");
  EXPECT_TRUE(contains(with_transform("DecodeImage", "{img_modee: BGR}"),
                       "unknown config key 'Train.dataset.transforms[0].DecodeImage.img_modee' "
                       "(did you mean 'Train.dataset.transforms[0].DecodeImage.img_mode'?)"));
  EXPECT_TRUE(contains(with_transform("RecResizeImg", "{image_shape: [3, 48]}"), "RecResizeImg.image_shape"));
}

TEST(ConfigKeys, NullMeansNotSetAnywhere) {
  EXPECT_EQ(problems_after({"Global.pretrained_model=", "Global.checkpoints="}), "");
  // ... for known keys: a null typo is still a typo (docs/config.md).
  EXPECT_NE(problems_after({"Global.pretrainde_model="}).find("pretrained_model"), std::string::npos);
}

// Every unknown key at once; a wrong kind stops the reading at that key.
TEST(ConfigKeys, ReportsEveryProblemAtOnce) {
  const std::string msg = problems_after({"Global.epoch_nun=1", "Optimizer.lr.warmup_epochs=1", "Train.loader.shufle=true"});
  EXPECT_TRUE(contains(msg, "rec_tiny_test.yml: 3 config problems:"));
  EXPECT_TRUE(contains(msg, "\n  - unknown config key 'Global.epoch_nun'"));
  EXPECT_TRUE(contains(msg, "\n  - unknown config key 'Optimizer.lr.warmup_epochs'"));
  EXPECT_TRUE(contains(msg, "\n  - unknown config key 'Train.loader.shufle' (did you mean 'Train.loader.shuffle'?)"));
  EXPECT_TRUE(contains(problems_after({"Global.use_gpu=maybe"}), "config key 'Global.use_gpu' must be a boolean"));
}

TEST(ConfigKeys, OurGlobalKeysAreRead) {
  EXPECT_EQ(problems_after({"Global.num_threads=4", "Global.deterministic=false", "Global.grad_clip=5.0"}), "");
  // use_amp is read (bf16 autocast on a CPU that has it); the AMP tuning keys are accepted and ignored
  EXPECT_EQ(problems_after({"Global.use_amp=true", "Global.amp_level=O2", "Global.scale_loss=1024.0", "Global.use_dynamic_loss_scaling=true",
                            "Global.d2s_train_image_shape=[3, 32, 100]"}),
            "");
}

// PaddleOCR's det_mv3_db.yml gives `lr: {learning_rate: 0.001}` without a name
// (PaddleOCR's scheduler defaults to Const).
TEST(ConfigKeys, LrWithoutNameIsConst) {
  EXPECT_EQ(problems_after({"Optimizer.lr={learning_rate: 0.001}"}), "");
  EXPECT_NE(problems_after({"Optimizer.lr={learning_rate: 0.001, decay_epochs: [1]}"}), "");
}

// A key no reader of this task reads is unknown, though another task reads it.
TEST(ConfigKeys, AKeyOfAnotherTaskIsUnknown) {
  // DBPostProcess's box_thresh is read by detection only
  EXPECT_TRUE(contains(problems_after({"PostProcess.box_thresh=0.6"}), "unknown config key 'PostProcess.box_thresh'"));
  // det's Backbone in_channels is read, rec's MobileNetV3 reads it too; `layers` only ResNet_vd does
  EXPECT_TRUE(contains(problems_after({"Architecture.Backbone.layers=18"}),
                       "unknown config key 'Architecture.Backbone.layers'"));
}

// Typos at every depth: a section, a section key, a component key, a key of a
// list entry; each names the closest key read beside it.
TEST(ConfigKeys, TyposAtEveryDepthSuggestTheClosestReadKey) {
  EXPECT_TRUE(contains(problems_of("Optimiser:\n  name: Adam\n"),
                       "unknown config key 'Optimiser' (did you mean 'Optimizer'?)"));
  EXPECT_TRUE(contains(problems_after({"Global.save_epoch_stpe=1"}),
                       "(did you mean 'Global.save_epoch_step'?)"));
  EXPECT_TRUE(contains(problems_after({"Architecture.Head.fc_decy=0.1"}),
                       "unknown config key 'Architecture.Head.fc_decy' (did you mean 'Architecture.Head.fc_decay'?)"));
  EXPECT_TRUE(contains(problems_after({"Eval.loader.batch_size_per_crad=2"}),
                       "(did you mean 'Eval.loader.batch_size_per_card'?)"));
}

// Keys PaddleOCR configs carry that ocrforge ignores: accepted, and listed.
TEST(ConfigKeys, IgnoredKeysAreAcceptedAndListed) {
  in_source_dir();
  Config c = Config::load_file(tiny_path());
  c.apply_overrides({"Global.use_visualdl=false", "Train.loader.use_shared_memory=true"});
  const std::vector<std::string> ignored = ocrforge::check_config_keys(c);
  for (const char* key : {"Global.use_visualdl", "Train.loader.use_shared_memory"})
    EXPECT_NE(std::find(ignored.begin(), ignored.end(), key), ignored.end()) << key;
  EXPECT_EQ(std::find(ignored.begin(), ignored.end(), "Global.epoch_num"), ignored.end());  // a read key is not ignored
  const std::string line = ocrforge::ignored_keys_line(ignored);
  EXPECT_TRUE(contains(line, "ignored (accepted for PaddleOCR configs, no effect): "));
  EXPECT_TRUE(contains(line, "Global.use_visualdl"));
  for (const auto& key : ocrforge::ignored_config_keys()) {
    SCOPED_TRACE(key);
    // keys that recognition itself reads (an unset Loss.name is its error) or that a run refuses when set
    if (key == "Global.use_sync_bn" || key == "Global.save_inference_dir" || key == "Loss.name" ||
        key.find(".transforms.") != std::string::npos)  // a transform's keys live in a list entry
      continue;
    Config with = Config::load_file(tiny_path());
    with.set_node(key, YAML::Node(YAML::NodeType::Null));
    EXPECT_EQ(ocrforge::test::message_of<UsageError>([&] { ocrforge::check_config_keys(with); }), "");
  }
  // a typo of an ignored key is still a typo, with the ignored key as its suggestion
  EXPECT_TRUE(contains(problems_after({"Global.use_visualdll=false"}), "(did you mean 'Global.use_visualdl'?)"));
}

// Every config we ship reads with no unknown key (data from the toy sets).
// PaddleOCR's own copies (configs/paddleocr_files.txt) may name pieces not
// built yet: ConfigCheck.EveryCopiedPaddleOcrConfigPassesOrNamesWhatIsNotBuilt covers them.
TEST(ConfigKeys, EveryShippedConfigReadsWithNoUnknownKey) {
  in_source_dir();
  std::set<std::string> paddleocr_copies;
  {
    std::ifstream list("configs/paddleocr_files.txt");
    ASSERT_TRUE(list) << "configs/paddleocr_files.txt";
    for (std::string line; std::getline(list, line);)
      if (!line.empty() && line[0] != '#') paddleocr_copies.insert(fs::path(line).lexically_normal().string());
  }
  const std::string dir = ocrforge::test::fresh_dir("config_keys_cls");
  {  // the classifier's labels: the toy crops as 0 / 180
    std::ifstream rec("tests/data/rec_toy/rec_gt.txt");
    std::ofstream cls(dir + "/cls_gt.txt");
    std::string line;
    for (int i = 0; std::getline(rec, line) && i < 4; ++i)
      cls << line.substr(0, line.find('\t')) << "\t" << (i % 2 ? "180" : "0") << "\n";
  }
  int read = 0;
  for (const auto& entry : fs::recursive_directory_iterator("configs")) {
    if (entry.path().extension() != ".yml") continue;
    if (paddleocr_copies.count(entry.path().lexically_normal().string())) continue;
    SCOPED_TRACE(entry.path().string());
    Config c = Config::load_file(entry.path().string());
    const std::string type = c.get<std::string>("Architecture.model_type", "");
    const std::string data = type == "det" ? "tests/data/det_toy" : type == "cls" ? "tests/data/rec_toy" : "tests/data/rec_toy";
    const std::string labels = type == "det" ? data + "/det_gt.txt" : type == "cls" ? dir + "/cls_gt.txt" : data + "/rec_gt.txt";
    for (const char* section : {"Train", "Eval"})
      if (c.has(std::string(section) + ".dataset"))
        c.apply_overrides({std::string(section) + ".dataset.data_dir=" + data,
                           std::string(section) + ".dataset.label_file_list=[" + labels + "]",
                           std::string(section) + ".dataset.ratio_list="});
    EXPECT_EQ(ocrforge::test::message_of<ocrforge::Error>([&] { ocrforge::check_config_keys(c); }), "");
    ++read;
  }
  EXPECT_GE(read, 18);
}
