// Tests for the training-config schema (ocrforge/core/config_schema.h) and
// the configs we ship under configs/.
#include "ocrforge/core/config_schema.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "test_support.h"

using ocrforge::Config;
using ocrforge::UsageError;
namespace schema = ocrforge::schema;

namespace {

inline testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "'" << text << "'\n  does not contain\n'" << part << "'";
}

// A valid base (the tiny test config) with `overrides` applied; returns the
// validation message ("" when valid).
std::string problems_after(const std::vector<std::string>& overrides) {
  Config c = Config::load_file(ocrforge::test::source_dir() + "/configs/rec/rec_tiny_test.yml");
  return ocrforge::test::message_of<UsageError>([&] {
    c.apply_overrides(overrides);
  });
}

std::string problems_of(const std::string& yaml) {
  return ocrforge::test::message_of<UsageError>([&] {
    Config::from_string(yaml, "t.yml").validate();
  });
}

}  // namespace

TEST(ConfigSchema, ShippedConfigsLoadAndValidate) {
  const std::string root = ocrforge::test::source_dir() + "/configs/rec/";
  for (const char* name : {"en_PP-OCRv3_mobile_rec.yml", "ch_PP-OCRv3_mobile_rec.yml",
                           "rec_tiny_test.yml", "en_CRNN_mobilenetv3_rec.yml"}) {
    SCOPED_TRACE(name);
    const Config c = Config::load_file(root + name);
    EXPECT_NO_THROW(c.validate());
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

TEST(ConfigSchema, ShippedConfigsHaveTheDocumentedModels) {
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

TEST(ConfigSchema, EnglishDictionaryIsPaddleOCRsPrintableAscii) {
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

TEST(ConfigSchema, UnknownKeyNamesFullPathAndClosestKey) {
  EXPECT_EQ(problems_after({"Optimizer.lr.warmup_epochs=5"}),
            ocrforge::test::source_dir() + "/configs/rec/rec_tiny_test.yml: unknown config key "
            "'Optimizer.lr.warmup_epochs' (did you mean 'Optimizer.lr.warmup_epoch'?)");
  EXPECT_TRUE(contains(problems_after({"Global.zzzzzz=1"}),
                       "unknown config key 'Global.zzzzzz' (known: use_gpu, use_xpu, "));
  EXPECT_TRUE(contains(problems_of("Globall:\n  epoch_num: 1\n"),
                       "unknown config key 'Globall' (did you mean 'Global'?)"));
}

TEST(ConfigSchema, UnknownComponentNameListsKnownNames) {
  EXPECT_TRUE(contains(problems_after({"Architecture.Backbone.name=MobileNetV5"}),
                       "Architecture.Backbone.name: unknown backbone 'MobileNetV5' "
                       "(known: MobileNetV1Enhance, MobileNetV3); did you mean 'MobileNetV3'?"));
  EXPECT_TRUE(contains(problems_after({"Optimizer.lr.name=Cosin"}),
                       "Optimizer.lr.name: unknown learning-rate schedule 'Cosin' "
                       "(known: Const, Cosine, Linear, Piecewise)"));
  EXPECT_TRUE(contains(problems_of("Loss:\n  use_focal_loss: true\n"),
                       "Loss.name: missing loss name (known: CTCLoss, ClsLoss, MultiLoss, CombinedLoss)"));
  EXPECT_TRUE(contains(problems_of("Architecture:\n  Transform:\n    name: TPS\n"),
                       "unknown rectification transform 'TPS' (known: none)"));
}

TEST(ConfigSchema, KeysDependOnTheComponentName) {
  EXPECT_EQ(problems_after({"Architecture.Backbone.disable_se=true"}), "");  // a MobileNetV3 key
  EXPECT_TRUE(contains(problems_after({"Architecture.Backbone.last_pool_type=avg"}),
                       "unknown config key 'Architecture.Backbone.last_pool_type'"));
  EXPECT_EQ(problems_after({"Optimizer.name=AdamW", "Optimizer.weight_decay=0.05"}), "");
  EXPECT_TRUE(contains(problems_after({"Optimizer.weight_decay=0.05"}),
                       "unknown config key 'Optimizer.weight_decay'"));  // Adam has none
  EXPECT_EQ(problems_after({"Optimizer.clip_norm=10"}), "");  // shared by all optimizers
}

TEST(ConfigSchema, WrongKindsNameKeyAndExpectedKind) {
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

TEST(ConfigSchema, NumbersBoolsAndListsAcceptPaddleOcrForms) {
  for (const char* v : {"0.001", "1e-3", "1.0e-3", "3"})
    EXPECT_EQ(problems_after({std::string("Optimizer.lr.learning_rate=") + v}), "") << v;
  for (const char* v : {"true", "True", "FALSE", "yes", "off", "1"})
    EXPECT_EQ(problems_after({std::string("Global.use_gpu=") + v}), "") << v;
  EXPECT_EQ(problems_after({"Global.eval_batch_step=2000"}), "");
  EXPECT_EQ(problems_after({"Global.eval_batch_step=[0, 2000]"}), "");
  EXPECT_TRUE(contains(problems_after({"Global.eval_batch_step=[0]"}),
                       "must be an integer or a list of 2 integers, got a list"));
  EXPECT_TRUE(contains(problems_after({"Global.eval_batch_step=[0, x]"}), "'Global.eval_batch_step'"));
  EXPECT_EQ(problems_after({"Train.dataset.label_file_list=a.txt"}), "");
  EXPECT_EQ(problems_after({"Train.dataset.ratio_list=[0.5, 1.0]"}), "");
  EXPECT_EQ(problems_after({"Global.epoch_num=2.5"}).empty(), false);
}

TEST(ConfigSchema, TransformListsAreCheckedPerTransform) {
  const std::string t = "Train:\n  dataset:\n    name: SimpleDataSet\n    transforms:\n";
  EXPECT_EQ(problems_of(t + "    - DecodeImage: {img_mode: BGR, channel_first: false}\n    - RecAug:\n"), "");
  EXPECT_TRUE(contains(problems_of(t + "    - DecodeImage:\n    - RecAugg:\n"),
                       "Train.dataset.transforms[1]: unknown transform 'RecAugg' (known: "
                       "CTCLabelEncode, DecodeImage, KeepKeys, RecAug, MultiLabelEncode, RecConAug, RecResizeImg, "
                       "ClsLabelEncode, ClsResizeImg, "
                       "BaseDataAugmentation, RandAugment); did you mean 'RecAug'?"));
  EXPECT_TRUE(contains(problems_of(t + "    - DecodeImage: {img_modee: BGR}\n"),
                       "unknown config key 'Train.dataset.transforms[0].DecodeImage.img_modee' "
                       "(did you mean 'Train.dataset.transforms[0].DecodeImage.img_mode'?)"));
  EXPECT_TRUE(contains(problems_of(t + "    - RecResizeImg: {image_shape: [3, 48]}\n"),
                       "'Train.dataset.transforms[0].RecResizeImg.image_shape' must be a list of 3 integers"));
  EXPECT_TRUE(contains(problems_of(t + "    - {DecodeImage: , RecAug: }\n"), "must be one transform"));
  EXPECT_TRUE(contains(problems_of(t + "    - DecodeImage: BGR\n"), "must be a map of parameters"));
  EXPECT_TRUE(contains(problems_of(t + "      DecodeImage: {}\n"), "must be a list of one-key maps"));
}

TEST(ConfigSchema, NullMeansNotSetAnywhere) {
  EXPECT_EQ(problems_of("Global:\n  pretrained_model:\n  eval_batch_step: ~\nArchitecture:\n"
                        "  Neck:\n  Transform:\nPostProcess:\n"),
            "");
  // ... for known keys: a null typo is still a typo (docs/config.md).
  EXPECT_NE(problems_of("Global:\n  pretrainde_model:\n").find("pretrained_model"), std::string::npos);
}

TEST(ConfigSchema, ReportsEveryProblemAtOnce) {
  const std::string msg = problems_of("Global:\n  epoch_nun: 1\n  use_gpu: maybe\n");
  EXPECT_TRUE(contains(msg, "t.yml: 2 config problems:"));
  EXPECT_TRUE(contains(msg, "\n  - unknown config key 'Global.epoch_nun'"));
  EXPECT_TRUE(contains(msg, "\n  - config key 'Global.use_gpu' must be a boolean"));
}

TEST(ConfigSchema, CoversPaddleOcrSectionsAndOurGlobalKeys) {
  std::vector<std::string> sections;
  for (const auto& f : schema::config_schema().fields) sections.push_back(f.key);
  EXPECT_EQ(sections, (std::vector<std::string>{"Global", "Architecture", "Loss", "Optimizer",
                                                "PostProcess", "Metric", "Train", "Eval"}));
  EXPECT_EQ(problems_after({"Global.num_threads=4", "Global.deterministic=false", "Global.grad_clip=5.0",
                            "Global.use_amp=true", "Global.amp_level=O2", "Global.scale_loss=1024.0",
                            "Global.use_dynamic_loss_scaling=true", "Global.d2s_train_image_shape=[3, 32, 100]"}),
            "");
}

// The schema is data: a new component is a new Variant row, nothing else.
TEST(ConfigSchema, ExtendsByAddingRows) {
  using schema::Kind;
  const schema::Field s = schema::section(
      "", {schema::component("Loss", "loss", {{"CTCLoss", {}}, {"DBLoss", {{"alpha", Kind::Number}}}})});
  EXPECT_TRUE(schema::check_config(YAML::Load("Loss: {name: DBLoss, alpha: 5}"), s).empty());
  const auto problems = schema::check_config(YAML::Load("Loss: {name: CTCLoss, alpha: 5}"), s);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "unknown config key 'Loss.alpha' (known: name)");
}

// Layers above core add their rows; a name that exists gains the keys it lacks.
TEST(ConfigSchema, AddedVariantsMergeIntoTheTables) {
  schema::add_schema_variants("Architecture.Neck", {{"TestOnlyNeck", {{"width", schema::Kind::Int}}}});
  schema::add_schema_variants("Architecture.Backbone", {{"MobileNetV3", {{"test_only_key", schema::Kind::Bool}}}});
  EXPECT_EQ(problems_of("Architecture: {Neck: {name: TestOnlyNeck, width: 3}}"), "");
  EXPECT_NE(problems_of("Architecture: {Neck: {name: TestOnlyNeck, width: x}}"), "");
  EXPECT_EQ(problems_of("Architecture: {Backbone: {name: MobileNetV3, test_only_key: true, scale: 0.5}}"), "");
  EXPECT_THROW(schema::add_schema_variants("Architecture.NoSuchPart", {}), std::logic_error);
}

// PaddleOCR's det_mv3_db.yml gives `lr: {learning_rate: 0.001}` without a name
// (PaddleOCR's scheduler defaults to Const).
TEST(ConfigSchema, LrWithoutNameIsConst) {
  EXPECT_EQ(problems_of("Optimizer: {name: Adam, lr: {learning_rate: 0.001}}"), "");
  EXPECT_NE(problems_of("Optimizer: {name: Adam, lr: {learning_rate: 0.001, decay_epochs: [1]}}"), "");
}
