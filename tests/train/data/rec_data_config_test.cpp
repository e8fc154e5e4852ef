// Config -> RecTransformSpec / RecDataset / LoaderSpec.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/rec_data_config.h"
#include "ocrforge/train/data/rec_transform_config.h"
#include "rec_data_fixtures.h"

namespace ocrforge {
namespace {

const char* kTransforms = R"(
- DecodeImage:
    img_mode: BGR
    channel_first: false
- RecAug:
    tia_prob: 0.2
    blur_prob: 0.0
- CTCLabelEncode:
- RecResizeImg:
    image_shape: [3, 32, 100]
- KeepKeys:
    keep_keys: [image, label, length]
)";

std::string usage_error(const std::string& yaml, bool training = true) {
  try {
    rec_transform_spec_from_yaml(YAML::Load(yaml), "Train.dataset.transforms", test::toy_charset(), 25, training);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(RecTransformConfig, ReadsAPaddleOcrTransformList) {
  const RecTransformSpec t =
      rec_transform_spec_from_yaml(YAML::Load(kTransforms), "Train.dataset.transforms", test::toy_charset(), 30, true);
  EXPECT_TRUE(t.use_aug);
  EXPECT_DOUBLE_EQ(t.aug.tia_prob, 0.2);
  EXPECT_DOUBLE_EQ(t.aug.blur_prob, 0.0);
  EXPECT_DOUBLE_EQ(t.aug.crop_prob, 0.4);  // PaddleOCR's default
  EXPECT_EQ(t.image_shape, (std::array<int, 3>{3, 32, 100}));
  EXPECT_EQ(t.max_text_length, 30);
  EXPECT_EQ(t.charset.num_classes(), test::toy_charset().num_classes());
  // Evaluation never augments, even when RecAug is listed.
  EXPECT_FALSE(
      rec_transform_spec_from_yaml(YAML::Load(kTransforms), "Eval.dataset.transforms", test::toy_charset(), 30, false)
          .use_aug);
}

TEST(RecTransformConfig, UnknownTransformListsTheKnownOnes) {
  const std::string msg = usage_error("[{DecodeImage: }, {RecAugg: }, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [3, 48, 320]}}]");
  EXPECT_NE(msg.find("unknown transform 'RecAugg'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'RecAug'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("DecodeImage, RecAug, CTCLabelEncode, RecResizeImg, KeepKeys"), std::string::npos) << msg;
  EXPECT_NE(usage_error("[{MultiLabelEncode: }]").find("unknown transform 'MultiLabelEncode'"), std::string::npos);
}

TEST(RecTransformConfig, RejectsBadParametersAndLists) {
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }]").find("needs a RecResizeImg"), std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {RecAug: {tia_prb: 0.1}}, {CTCLabelEncode: }, "
                        "{RecResizeImg: {image_shape: [3, 48, 320]}}]")
                .find("Train.dataset.transforms.RecAug.tia_prb' (did you mean 'tia_prob'"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [1, 48, 320]}}]")
                .find("image_shape"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [3, 48, 320]}}, {RecAug: }]")
                .find("RecAug must come before RecResizeImg"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: {img_mode: RGB}}, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [3, 48, 320]}}]")
                .find("BGR"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {RecAug: {noise_prob: 2}}, {CTCLabelEncode: }, "
                        "{RecResizeImg: {image_shape: [3, 48, 320]}}]")
                .find("[0, 1]"),
            std::string::npos);
  EXPECT_NE(usage_error("DecodeImage").find("expected a list"), std::string::npos);
}

std::string train_section(const std::string& extra_dataset = "", const std::string& loader = "") {
  return "dataset:\n"
         "  name: SimpleDataSet\n"
         "  data_dir: " + test::rec_toy_dir() + "\n"
         "  label_file_list: [" + test::rec_toy_labels() + "]\n"
         "  ratio_list: [0.5]\n" + extra_dataset +
         "  transforms:\n"
         "    - DecodeImage: {img_mode: BGR, channel_first: false}\n"
         "    - RecAug:\n"
         "    - CTCLabelEncode:\n"
         "    - RecResizeImg: {image_shape: [3, 48, 320]}\n"
         "    - KeepKeys: {keep_keys: [image, label, length]}\n"
         "loader:\n" + (loader.empty() ? "  shuffle: true\n  drop_last: true\n  batch_size_per_card: 2\n  num_workers: 3\n" : loader);
}

TEST(RecDataConfig, BuildsDatasetAndLoaderSpec) {
  const RecDataSetup s = rec_data_from_yaml(YAML::Load(train_section()), "Train", test::toy_charset(), 25, 1024, true);
  ASSERT_TRUE(s.dataset);
  EXPECT_EQ(s.dataset->size(), 5u);  // ratio 0.5 of 10 lines
  EXPECT_TRUE(s.dataset->transforms().use_aug);
  EXPECT_EQ(s.loader.batch_size, 2);
  EXPECT_EQ(s.loader.num_workers, 3);
  EXPECT_TRUE(s.loader.shuffle);
  EXPECT_TRUE(s.loader.drop_last);

  const RecDataSetup e = rec_data_from_yaml(YAML::Load(train_section("  delimiter: \"\\t\"\n", "  batch_size_per_card: 4\n")),
                                            "Eval", test::toy_charset(), 25, 1024, false);
  EXPECT_FALSE(e.dataset->transforms().use_aug);
  EXPECT_FALSE(e.loader.shuffle);  // evaluation defaults
  EXPECT_FALSE(e.loader.drop_last);
  EXPECT_EQ(e.loader.batch_size, 4);
}

TEST(RecDataConfig, ConfigMistakesNameTheKey) {
  auto msg = [](const std::string& yaml) -> std::string {
    try {
      rec_data_from_yaml(YAML::Load(yaml), "Train", test::toy_charset(), 25, 1024, true);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(msg(train_section("  data_dri: x\n")).find("Train.dataset.data_dri' (did you mean 'data_dir'"),
            std::string::npos);
  EXPECT_NE(msg(train_section("", "  batch_size: 2\n")).find("Train.loader.batch_size'"), std::string::npos);
  EXPECT_NE(msg(train_section("", "  batch_size_per_card: zero\n")).find("Train.loader.batch_size_per_card"),
            std::string::npos);
  std::string lmdb = train_section();
  lmdb.replace(lmdb.find("SimpleDataSet"), 13, "LMDBDataSet");
  EXPECT_NE(msg(lmdb).find("SimpleDataSet"), std::string::npos);
  std::string missing = train_section();
  missing.replace(missing.find(test::rec_toy_labels()), test::rec_toy_labels().size(), "/nonexistent/l.txt");
  const std::string m = msg(missing);
  EXPECT_NE(m.find("/nonexistent/l.txt"), std::string::npos) << m;
  EXPECT_NE(m.find("Train.dataset.label_file_list"), std::string::npos) << m;
}

// The schema check accepts 1/0 for booleans; the data reader must accept
// what the schema accepted (it used to reject `-o Train.loader.shuffle=1`).
TEST(RecDataConfig, LoaderBooleansAcceptWhatTheSchemaAccepts) {
  const RecDataSetup s = rec_data_from_yaml(
      YAML::Load(train_section("", "  shuffle: 0\n  drop_last: 1\n  batch_size_per_card: 2\n")), "Train",
      test::toy_charset(), 25, 1024, true);
  EXPECT_FALSE(s.loader.shuffle);
  EXPECT_TRUE(s.loader.drop_last);
}

}  // namespace
}  // namespace ocrforge
