// Config -> RecTransformSpec / RecDataset / LoaderSpec.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/tasks/rec/rec_data_config.h"
#include "ocrforge/train/tasks/rec/rec_transform_config.h"
#include "ocrforge/train/tasks/rec/rec_transforms.h"
#include "rec_data_fixtures.h"
#include "test_support.h"

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
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Train.dataset.transforms", [&] {
    rec_transform_spec_from_yaml(n, "Train.dataset.transforms", test::toy_charset(), 25, training);
  });
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
  EXPECT_NE(msg.find("DecodeImage, RecConAug, RecAug, CTCLabelEncode, MultiLabelEncode, RecResizeImg, "
                     "SVTRRecResizeImg, KeepKeys"),
            std::string::npos)
      << msg;
}

// PaddleOCR's SVTRRecResizeImg (ch_PP-OCRv4_rec_svtr_large.yml's Eval) is
// RecResizeImg with padding: the same resize, under the same rules.
TEST(RecTransformConfig, SvtrRecResizeImgIsRecResizeImg) {
  const RecTransformSpec t = rec_transform_spec_from_yaml(
      YAML::Load("[{DecodeImage: }, {CTCLabelEncode: }, {SVTRRecResizeImg: {image_shape: [3, 48, 320], padding: true}}]"),
      "Eval.dataset.transforms", test::toy_charset(), 25, false);
  EXPECT_EQ(t.image_shape, (std::array<int, 3>{3, 48, 320}));
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {SVTRRecResizeImg: {image_shape: [3, 48, 320], "
                        "padding: false}}]")
                .find("SVTRRecResizeImg.padding"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {SVTRRecResizeImg: {image_shape: [3, 48, 320]}}, "
                        "{RecResizeImg: {image_shape: [3, 48, 320]}}]")
                .find("lists both RecResizeImg and SVTRRecResizeImg"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {SVTRRecResizeImg: {image_shape: [3, 48, 320]}}, "
                        "{RecAug: }]")
                .find("RecAug must come before RecResizeImg"),
            std::string::npos);
}

// PaddleOCR's configs/rec/PP-OCRv3/ch_PP-OCRv3_rec_distillation.yml, unchanged.
const char* kPpOcrV3Train = R"(
- DecodeImage: {img_mode: BGR, channel_first: false}
- RecConAug: {prob: 0.5, ext_data_num: 2, image_shape: [48, 320, 3]}
- RecAug:
- MultiLabelEncode:
- RecResizeImg: {image_shape: [3, 48, 320]}
- KeepKeys: {keep_keys: [image, label_ctc, label_sar, length, valid_ratio]}
)";
const char* kPpOcrV3Eval = R"(
- DecodeImage: {img_mode: BGR, channel_first: false}
- MultiLabelEncode:
- RecResizeImg: {image_shape: [3, 48, 320]}
- KeepKeys: {keep_keys: [image, label_ctc, label_sar, length, valid_ratio]}
)";

TEST(RecTransformConfig, ReadsPpOcrV3MultiLabelEncodeAndRecConAug) {
  const RecTransformSpec t = rec_transform_spec_from_yaml(YAML::Load(kPpOcrV3Train), "Train.dataset.transforms",
                                                          test::toy_charset(), 25, true);
  EXPECT_TRUE(t.multi_label_encode);
  EXPECT_TRUE(t.use_con_aug);
  EXPECT_TRUE(t.use_aug);
  EXPECT_DOUBLE_EQ(t.con_aug.prob, 0.5);
  EXPECT_EQ(t.con_aug.ext_data_num, 2);
  EXPECT_EQ(t.con_aug.height, 48);
  EXPECT_EQ(t.con_aug.width, 320);
  EXPECT_EQ(t.con_aug.max_text_length, 25);  // not in the config: Global's
  EXPECT_EQ(t.image_shape, (std::array<int, 3>{3, 48, 320}));
  EXPECT_EQ(t.max_text_length, 25);
  // Evaluation never concatenates or augments, even when listed.
  const RecTransformSpec e1 = rec_transform_spec_from_yaml(YAML::Load(kPpOcrV3Train), "Eval.dataset.transforms",
                                                           test::toy_charset(), 25, false);
  EXPECT_FALSE(e1.use_con_aug);
  EXPECT_FALSE(e1.use_aug);
  const RecTransformSpec e = rec_transform_spec_from_yaml(YAML::Load(kPpOcrV3Eval), "Eval.dataset.transforms",
                                                          test::toy_charset(), 40, false);
  EXPECT_TRUE(e.multi_label_encode);
  EXPECT_FALSE(e.use_con_aug);
  EXPECT_EQ(e.max_text_length, 40);

  // RecConAug's defaults (PaddleOCR's), its own max_text_length when set, null params.
  const RecTransformSpec d = rec_transform_spec_from_yaml(
      YAML::Load("[{DecodeImage: }, {RecConAug: }, {MultiLabelEncode: null}, {RecResizeImg: {image_shape: [3, 48, 320]}}]"),
      "Train.dataset.transforms", test::toy_charset(), 30, true);
  EXPECT_DOUBLE_EQ(d.con_aug.prob, 0.5);
  EXPECT_EQ(d.con_aug.ext_data_num, 1);
  EXPECT_EQ(d.con_aug.height, 32);
  EXPECT_EQ(d.con_aug.width, 320);
  EXPECT_EQ(d.con_aug.max_text_length, 30);
  EXPECT_EQ(rec_transform_spec_from_yaml(
                YAML::Load("[{DecodeImage: }, {RecConAug: {max_text_length: 12}}, {CTCLabelEncode: }, "
                           "{RecResizeImg: {image_shape: [3, 48, 320]}}]"),
                "Train.dataset.transforms", test::toy_charset(), 30, true)
                .con_aug.max_text_length,
            12);
  // MultiLabelEncode's dictionary keys are Global's in PaddleOCR: accepted.
  EXPECT_NO_THROW(rec_transform_spec_from_yaml(
      YAML::Load("[{DecodeImage: }, {MultiLabelEncode: {max_text_length: 25, use_space_char: true}}, "
                 "{RecResizeImg: {image_shape: [3, 48, 320]}}]"),
      "Train.dataset.transforms", test::toy_charset(), 25, true));
}

TEST(RecTransformConfig, RejectsMisusedMultiLabelEncodeAndRecConAug) {
  const std::string resize = "{RecResizeImg: {image_shape: [3, 48, 320]}}";
  std::string m = usage_error("[{DecodeImage: }, {CTCLabelEncode: }, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("both CTCLabelEncode and MultiLabelEncode"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, " + resize + "]");
  EXPECT_NE(m.find("needs a CTCLabelEncode (or MultiLabelEncode)"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {MultiLabelEncode: {gtc_encode: SARLabelEncode}}, " + resize + "]");
  EXPECT_NE(m.find("MultiLabelEncode.gtc_encode': 'SARLabelEncode' is not supported; known: NRTRLabelEncode"),
            std::string::npos) << m;
  EXPECT_TRUE(rec_transform_spec_from_yaml(
                  YAML::Load("[{DecodeImage: }, {MultiLabelEncode: {gtc_encode: NRTRLabelEncode}}, " + resize +
                             ", {KeepKeys: {keep_keys: [image, label_ctc, label_gtc, length, valid_ratio]}}]"),
                  "Train.dataset.transforms", test::toy_charset(), 25, true)
                  .nrtr_labels);
  m = usage_error("[{DecodeImage: }, {MultiLabelEncode: }, " + resize + ", {KeepKeys: {keep_keys: [image, label_gtc]}}]");
  EXPECT_NE(m.find("'label_gtc' is not produced"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {MultiLabelEncode: {max_text_len: 3}}, " + resize + "]");
  // (max_text_length itself is accepted and ignored: train/loop/config_keys.cpp)
  EXPECT_NE(m.find("unknown config key 'Train.dataset.transforms[1].MultiLabelEncode.max_text_len'"), std::string::npos) << m;
  // KeepKeys: label_ctc / label_sar only after MultiLabelEncode, label only after CTCLabelEncode.
  m = usage_error("[{DecodeImage: }, {CTCLabelEncode: }, " + resize + ", {KeepKeys: {keep_keys: [image, label_sar]}}]");
  EXPECT_NE(m.find("'label_sar' is made by MultiLabelEncode"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {MultiLabelEncode: }, " + resize + ", {KeepKeys: {keep_keys: [image, label]}}]");
  EXPECT_NE(m.find("'label' is not produced"), std::string::npos) << m;
  EXPECT_NE(m.find("label_ctc, label_sar"), std::string::npos) << m;
  // RecConAug: parameters and order.
  m = usage_error("[{DecodeImage: }, {RecConAug: {image_shape: [3, 48, 320]}}, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("RecConAug.image_shape"), std::string::npos) << m;
  EXPECT_NE(m.find("[48, 320, 3]"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {RecConAug: {prob: 1.5}}, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("RecConAug.prob': a probability in [0, 1]"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {RecConAug: {ext_data_num: -1}}, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("RecConAug.ext_data_num"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {RecAug: }, {RecConAug: }, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("RecConAug must come before RecAug"), std::string::npos) << m;
  m = usage_error("[{DecodeImage: }, {MultiLabelEncode: }, {RecConAug: }, " + resize + "]");
  EXPECT_NE(m.find("RecConAug must come before MultiLabelEncode"), std::string::npos) << m;
  m = usage_error("[{RecConAug: }, {DecodeImage: }, {MultiLabelEncode: }, " + resize + "]");
  EXPECT_NE(m.find("DecodeImage must come before RecConAug"), std::string::npos) << m;
}

TEST(RecTransformConfig, RejectsBadParametersAndLists) {
  EXPECT_NE(usage_error("[{DecodeImage: }, {CTCLabelEncode: }]").find("needs a RecResizeImg"), std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {RecAug: {tia_prb: 0.1}}, {CTCLabelEncode: }, "
                        "{RecResizeImg: {image_shape: [3, 48, 320]}}]")
                .find("Train.dataset.transforms[1].RecAug.tia_prb' (did you mean 'Train.dataset.transforms[1].RecAug.tia_prob'"),
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
  const RecDataSpec s = rec_data_from_yaml(YAML::Load(train_section()), "Train", test::toy_charset(), 25, 1024, true);
  ASSERT_TRUE(s.dataset);
  EXPECT_EQ(s.dataset->size(), 5u);  // ratio 0.5 of 10 lines
  EXPECT_TRUE(s.dataset->transforms().use_aug);
  EXPECT_EQ(s.loader.batch_size, 2);
  EXPECT_EQ(s.loader.num_workers, 3);
  EXPECT_TRUE(s.loader.shuffle);
  EXPECT_TRUE(s.loader.drop_last);

  const RecDataSpec e = rec_data_from_yaml(YAML::Load(train_section("  delimiter: \"\\t\"\n", "  batch_size_per_card: 4\n")),
                                            "Eval", test::toy_charset(), 25, 1024, false);
  EXPECT_FALSE(e.dataset->transforms().use_aug);
  EXPECT_FALSE(e.loader.shuffle);  // evaluation defaults
  EXPECT_FALSE(e.loader.drop_last);
  EXPECT_EQ(e.loader.batch_size, 4);
}

// PP-OCRv5's latin config evaluates with RecResizeImg eval_mode: a line
// wider than 48 x 320 keeps its aspect ratio (PaddleOCR's
// resize_norm_img_chinese) in batches of one.
TEST(RecDataConfig, EvalModeKeepsWideLinesWide) {
  std::string section = train_section("", "  batch_size_per_card: 1\n");
  section.replace(section.find("{image_shape: [3, 48, 320]}"), 27, "{image_shape: [3, 48, 64], eval_mode: true}");
  const RecDataSpec e = rec_data_from_yaml(YAML::Load(section), "Eval", test::toy_charset(), 25, 1024, false);
  EXPECT_TRUE(e.dataset->transforms().keep_wide_lines);
  bool wider = false;
  for (size_t i = 0; i < e.dataset->size(); ++i) {
    const Sample s = e.dataset->load_sample(i, 1, nullptr);
    const auto sizes = s.tensors.at("image").sizes();
    EXPECT_EQ(sizes[1], 48);
    EXPECT_GE(sizes[2], 64);
    wider = wider || sizes[2] > 64;
  }
  EXPECT_TRUE(wider);  // the toy crops are wider than 4 : 3
  const cv::Mat line(20, 200, CV_8UC3);
  EXPECT_EQ(eval_mode_width(line, {3, 48, 320}), 480);  // int(48 * 10)
  EXPECT_EQ(eval_mode_width(line, {3, 48, 600}), 600);  // narrower than the shape: the shape's width
  // Several lines of their own widths cannot be stacked: one per batch.
  std::string batched = train_section("", "  batch_size_per_card: 4\n");
  batched.replace(batched.find("{image_shape: [3, 48, 320]}"), 27, "{image_shape: [3, 48, 320], eval_mode: true}");
  const std::string msg = ocrforge::test::message_of<UsageError>(
      [&] { rec_data_from_yaml(YAML::Load(batched), "Eval", test::toy_charset(), 25, 1024, false); });
  EXPECT_NE(msg.find("RecResizeImg.eval_mode"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Eval.loader.batch_size_per_card: 1"), std::string::npos) << msg;
}

TEST(RecDataConfig, ConfigMistakesNameTheKey) {
  auto msg = [](const std::string& yaml) -> std::string {
    // A reader's Error (a missing file, ...), else its UsageError or the keys it left unread.
    const YAML::Node n = YAML::Load(yaml);
    std::string unread;
    const std::string e = ocrforge::test::message_of<Error>([&] {
      unread = ocrforge::test::read_error(n, "Train", [&] { rec_data_from_yaml(n, "Train", test::toy_charset(), 25, 1024, true); });
    });
    return e.empty() ? unread : e;
  };
  EXPECT_NE(msg(train_section("  data_dri: x\n")).find("Train.dataset.data_dri' (did you mean 'Train.dataset.data_dir'"),
            std::string::npos);
  EXPECT_NE(msg(train_section("", "  batch_size: 2\n")).find("Train.loader.batch_size'"), std::string::npos);
  EXPECT_NE(msg(train_section("", "  batch_size_per_card: zero\n")).find("Train.loader.batch_size_per_card"),
            std::string::npos);
  std::string other = train_section();
  other.replace(other.find("SimpleDataSet"), 13, "PGDataSet");
  EXPECT_NE(msg(other).find("'PGDataSet' is not supported yet for recognition"), std::string::npos) << msg(other);
  EXPECT_NE(msg(other).find("LMDBDataSet"), std::string::npos);  // the names it reads
  std::string missing = train_section();
  missing.replace(missing.find(test::rec_toy_labels()), test::rec_toy_labels().size(), "/nonexistent/l.txt");
  const std::string m = msg(missing);
  EXPECT_NE(m.find("/nonexistent/l.txt"), std::string::npos) << m;
  EXPECT_NE(m.find("Train.dataset.label_file_list"), std::string::npos) << m;
}

// The schema check accepts 1/0 for booleans; the data reader must accept
// what the schema accepted (it used to reject `-o Train.loader.shuffle=1`).
TEST(RecDataConfig, LoaderBooleansAcceptWhatTheSchemaAccepts) {
  const RecDataSpec s = rec_data_from_yaml(
      YAML::Load(train_section("", "  shuffle: 0\n  drop_last: 1\n  batch_size_per_card: 2\n")), "Train",
      test::toy_charset(), 25, 1024, true);
  EXPECT_FALSE(s.loader.shuffle);
  EXPECT_TRUE(s.loader.drop_last);
}

// A Train/Eval section over the toy data whose transforms are `transforms`
// (a YAML list, block or flow style).
YAML::Node section_with(const std::string& transforms, const std::string& label_file = test::rec_toy_labels(),
                        const std::string& extra_dataset = "") {
  YAML::Node n = YAML::Load("dataset:\n"
                            "  name: SimpleDataSet\n"
                            "  data_dir: " + test::rec_toy_dir() + "\n"
                            "  label_file_list: [" + label_file + "]\n" + extra_dataset +
                            "loader: {batch_size_per_card: 2}\n");
  n["dataset"]["transforms"] = YAML::Load(transforms);
  return n;
}

TEST(RecDataConfig, PpOcrV3SectionsLoad) {
  const RecDataSpec train =
      rec_data_from_yaml(section_with(kPpOcrV3Train, test::rec_toy_labels(), "  ext_op_transform_idx: 1\n"), "Train",
                         test::toy_charset(), 25, 1024, true);
  EXPECT_TRUE(train.dataset->transforms().use_con_aug);
  EXPECT_TRUE(train.dataset->transforms().multi_label_encode);
  const RecDataSpec eval =
      rec_data_from_yaml(section_with(kPpOcrV3Eval), "Eval", test::toy_charset(), 25, 1024, false);
  EXPECT_FALSE(eval.dataset->transforms().use_con_aug);
  DataStats stats;
  const Sample s = train.dataset->load_sample(0, 5, &stats);
  EXPECT_EQ(s.tensors.at("image").sizes(), (std::vector<int64_t>{3, 48, 320}));
  EXPECT_EQ(s.tensors.at("label").sizes(), (std::vector<int64_t>{25}));
  EXPECT_EQ(s.tensors.count("label_ctc"), 0u);  // the CTC label is "label"
  // MultiLabelEncode's SAR label: <BOS/EOS> (63 characters + <UKN> -> 64) first, max_text_length long.
  ASSERT_EQ(s.tensors.count("label_sar"), 1u);
  EXPECT_EQ(s.tensors.at("label_sar").sizes(), (std::vector<int64_t>{25}));
  EXPECT_EQ(s.tensors.at("label_sar")[0].item<int64_t>(), 64);
}

TEST(RecDataConfig, ExtOpTransformIdxMustBeOne) {
  const auto msg = [](const std::string& idx) -> std::string {
    return ocrforge::test::message_of<UsageError>([&] {
      rec_data_from_yaml(section_with(kPpOcrV3Train, test::rec_toy_labels(), "  ext_op_transform_idx: " + idx + "\n"),
                         "Train", test::toy_charset(), 25, 1024, true);
    });
  };
  EXPECT_EQ(msg("1"), "");
  const std::string m = msg("2");
  EXPECT_NE(m.find("Train.dataset.ext_op_transform_idx': only 1 is supported"), std::string::npos) << m;
  EXPECT_NE(msg("0").find("only 1 is supported"), std::string::npos);
}

// MultiLabelEncode's "label" / "length" are CTCLabelEncode's, sample by
// sample, including what is rejected (too long, no dictionary character).
TEST(RecDataConfig, MultiLabelEncodeGivesCtcLabelEncodesTensors) {
  const std::string dir = test::fresh_dir("multi_label_encode");
  std::string lines = test::read_text(test::rec_toy_labels());
  if (!lines.empty() && lines.back() != '\n') lines += '\n';
  lines += "imgs/1223731.jpg\tABCDEFGHIJKLMNOPQRSTUVWXYZ\n";  // 26 > 25 characters
  lines += "imgs/1223733.jpg\t##\n";                          // no dictionary character
  lines += "imgs/1223732.jpg\tHO#TEL\n";                      // one dropped character
  test::write_text(dir + "/labels.txt", lines);
  const auto list = [](const char* label_step) {
    return std::string("[{DecodeImage: }, {") + label_step +
           ": }, {RecResizeImg: {image_shape: [3, 48, 320]}}, {KeepKeys: {keep_keys: [image, " +
           (std::string(label_step) == "CTCLabelEncode" ? "label" : "label_ctc") + ", length]}}]";
  };
  for (bool training : {false, true}) {
    const auto ctc = rec_data_from_yaml(section_with(list("CTCLabelEncode"), dir + "/labels.txt"), "Train",
                                        test::toy_charset(), 25, 1024, training);
    const auto multi = rec_data_from_yaml(section_with(list("MultiLabelEncode"), dir + "/labels.txt"),
                                          "Train", test::toy_charset(), 25, 1024, training);
    ASSERT_EQ(ctc.dataset->size(), 13u);
    ASSERT_EQ(multi.dataset->size(), 13u);
    DataStats sc, sm;
    for (size_t i = 0; i < ctc.dataset->size(); ++i) {
      const Sample a = ctc.dataset->load_sample(i, 100 + i, &sc);
      const Sample b = multi.dataset->load_sample(i, 100 + i, &sm);
      EXPECT_TRUE(torch::equal(a.tensors.at("label"), b.tensors.at("label"))) << i;
      EXPECT_TRUE(torch::equal(a.tensors.at("length"), b.tensors.at("length"))) << i;
      EXPECT_TRUE(torch::equal(a.tensors.at("image"), b.tensors.at("image"))) << i;
      EXPECT_EQ(a.text, b.text) << i;
      EXPECT_EQ(a.path, b.path) << i;
    }
    EXPECT_GE(sm.too_long, 1);
    EXPECT_GE(sm.empty_label, 1);
    EXPECT_EQ(sm.too_long, sc.too_long);
    EXPECT_EQ(sm.empty_label, sc.empty_label);
    EXPECT_EQ(sm.dropped_chars, sc.dropped_chars);
    EXPECT_GE(sm.dropped_chars, 3);
  }
}

// RecConAug in the dataset: training joins extra samples' images and texts
// (deterministically from the sample's seed), evaluation never does.
TEST(RecDataConfig, RecConAugJoinsSamplesInTrainingOnly) {
  const std::string list =
      "[{DecodeImage: }, {RecConAug: {prob: 1.0, ext_data_num: 2, image_shape: [48, 320, 3]}}, {MultiLabelEncode: }, "
      "{RecResizeImg: {image_shape: [3, 48, 320]}}]";
  const auto train =
      rec_data_from_yaml(section_with(list), "Train", test::toy_charset(), 25, 1024, true).dataset;
  const auto eval =
      rec_data_from_yaml(section_with(list), "Eval", test::toy_charset(), 25, 1024, false).dataset;
  const auto text_of = [&](size_t i) {
    std::string t;
    EXPECT_TRUE(train->source().text(i, &t)) << i;
    return t;
  };
  std::vector<std::string> texts;
  for (size_t i = 0; i < train->size(); ++i) texts.push_back(text_of(i));
  int joined = 0;
  for (size_t i = 0; i < train->size(); ++i) {
    for (uint64_t seed : {3u, 4u}) {
      DataStats st;
      const RecSample r = train->load(i, seed, &st);
      const RecSample again = train->load(i, seed, nullptr);
      EXPECT_EQ(r.text, again.text);
      EXPECT_EQ(r.image, again.image);
      EXPECT_EQ(st.replaced(), 0);
      const std::string own = text_of(i);
      ASSERT_EQ(r.text.compare(0, own.size(), own), 0) << r.text;
      if (r.text.size() > own.size()) {
        ++joined;
        // The rest is one or two whole labels of the data set.
        const std::string rest = r.text.substr(own.size());
        bool found = false;
        for (const auto& a : texts) {
          found = found || rest == a;
          for (const auto& b : texts) found = found || rest == a + b;
        }
        EXPECT_TRUE(found) << r.text;
        EXPECT_LE(r.length, 25);
        EXPECT_EQ(r.length, static_cast<int64_t>(r.text.size()));  // ASCII toy labels
        // A joined image is wider: more of the 320 columns are used.
        const RecSample plain = eval->load(i, seed, nullptr);
        EXPECT_GE(r.valid_ratio, plain.valid_ratio);
      }
      EXPECT_EQ(eval->load(i, seed, nullptr).text, own);
    }
  }
  EXPECT_GT(joined, 5);  // prob 1: every sample whose neighbours fit is joined
}

// PP-OCRv4's Train section: MultiScaleDataSet without RecResizeImg, its
// MultiScaleSampler setting each batch's size; the loader makes batches of
// both scales at their batch sizes, with the NRTR label.
TEST(RecDataConfig, MultiScaleDataSetTakesItsSizesFromTheSampler) {
  const std::string transforms =
      "[{DecodeImage: }, {MultiLabelEncode: {gtc_encode: NRTRLabelEncode}}, "
      "{KeepKeys: {keep_keys: [image, label_ctc, label_gtc, length, valid_ratio]}}]";
  const auto section = [&](const std::string& t) {
    YAML::Node n = section_with(t);
    n["dataset"]["name"] = "MultiScaleDataSet";
    n["dataset"]["ds_width"] = false;
    n["sampler"] = YAML::Load("{name: MultiScaleSampler, scales: [[96, 32], [96, 48]], first_bs: 4, fix_bs: false, "
                              "divided_factor: [8, 16], is_training: true}");
    return n;
  };
  const RecDataSpec s = rec_data_from_yaml(section(transforms), "Train", test::toy_charset(), 25, 1024, true);
  ASSERT_TRUE(s.sampler.has_value());
  EXPECT_EQ(s.dataset->transforms().image_shape, (std::array<int, 3>{3, 32, 96}));
  DataStats stats;
  const Sample tall = s.dataset->load_sample_sized(0, 5, &stats, 48, 96);
  EXPECT_EQ(tall.tensors.at("image").sizes(), (std::vector<int64_t>{3, 48, 96}));
  EXPECT_EQ(tall.tensors.at("label_gtc")[0].item<int64_t>(), 2);  // <s>
  BatchLoader loader(s.dataset, s.loader, 1024, make_multi_scale_sampler(*s.sampler, 1024, 0, 1));
  loader.start_epoch(0);
  std::map<int64_t, int64_t> batch_size_of_height;
  Batch b;
  while (loader.next(&b)) batch_size_of_height[b.at("image").size(2)] = b.at("image").size(0);
  EXPECT_EQ(batch_size_of_height, (std::map<int64_t, int64_t>{{32, 4}, {48, 2}}));  // 4 x 32 x 96 / (48 x 96)

  const auto msg = [](const YAML::Node& n) {
    return ocrforge::test::message_of<UsageError>(
        [&] { rec_data_from_yaml(n, "Train", test::toy_charset(), 25, 1024, true); });
  };
  YAML::Node no_sampler = section(transforms);
  no_sampler.remove("sampler");
  EXPECT_NE(msg(no_sampler).find("Train.sampler' is missing"), std::string::npos);
  EXPECT_NE(msg(section("[{DecodeImage: }, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [3, 32, 96]}}]"))
                .find("remove RecResizeImg"),
            std::string::npos);
  YAML::Node ds_width = section(transforms);
  ds_width["dataset"]["ds_width"] = true;
  EXPECT_NE(msg(ds_width).find("Train.dataset.ds_width': true"), std::string::npos);
  YAML::Node simple = section_with("[{DecodeImage: }, {CTCLabelEncode: }, {RecResizeImg: {image_shape: [3, 32, 96]}}]");
  simple["sampler"] = section(transforms)["sampler"];
  EXPECT_NE(msg(simple).find("only with dataset name MultiScaleDataSet"), std::string::npos);
}

}  // namespace
}  // namespace ocrforge
