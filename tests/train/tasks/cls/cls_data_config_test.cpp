// The direction classifier's data: config -> ClsTransformSpec, label checks,
// one sample's tensors (cls_data_config.h, cls_dataset.h).
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/cls/cls_data_config.h"
#include "test_support.h"

namespace ocrforge {
namespace {

const char* kTransforms = R"(
- DecodeImage: {img_mode: BGR, channel_first: false}
- ClsLabelEncode:
- BaseDataAugmentation: {blur_prob: 0.0}
- ClsResizeImg: {image_shape: [3, 48, 192]}
- KeepKeys: {keep_keys: [image, label]}
)";

std::string usage_error(const std::string& yaml) {
  const YAML::Node n = YAML::Load(yaml);
  return ocrforge::test::read_error(n, "Train.dataset.transforms", [&] {
    cls_transform_spec_from_yaml(n, "Train.dataset.transforms", {"0", "180"}, true);
  });
}

TEST(ClsTransformConfig, ReadsPaddleOcrsClassifierList) {
  const ClsTransformSpec t =
      cls_transform_spec_from_yaml(YAML::Load(kTransforms), "Train.dataset.transforms", {"0", "180"}, true);
  EXPECT_TRUE(t.use_aug);
  EXPECT_DOUBLE_EQ(t.aug.tia_prob, 0.0);  // BaseDataAugmentation is RecAug without TIA
  EXPECT_DOUBLE_EQ(t.aug.blur_prob, 0.0);
  EXPECT_DOUBLE_EQ(t.aug.crop_prob, 0.4);
  EXPECT_EQ(t.image_shape, (std::array<int, 3>{3, 48, 192}));
  EXPECT_EQ(t.label_list, (std::vector<std::string>{"0", "180"}));
  EXPECT_FALSE(cls_transform_spec_from_yaml(YAML::Load(kTransforms), "Eval.dataset.transforms", {"0", "180"}, false)
                   .use_aug);
}

TEST(ClsTransformConfig, RefusesWhatItCannotDo) {
  // RandAugment works on the image before the resize (data/rand_augment.h).
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsLabelEncode: }, {ClsResizeImg: {image_shape: [3, 48, 192]}}, "
                        "{RandAugment: }]")
                .find("RandAugment must come before ClsResizeImg"),
            std::string::npos);
  // The rotnet's SSLRotateResize labels and resizes itself.
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsLabelEncode: }, {SSLRotateResize: {image_shape: [3, 48, 320]}}]")
                .find("remove ClsLabelEncode"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsLabelEncode: }]").find("needs a ClsResizeImg"), std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsLabelEncode: }, {BaseDataAugmentation: {tia_prob: 0.5}}, "
                        "{ClsResizeImg: {image_shape: [3, 48, 192]}}]")
                .find("unknown config key 'Train.dataset.transforms[2].BaseDataAugmentation.tia_prob'"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsLabelEncode: }, {ClsResizeImg: {image_shape: [3, 48, 192]}}, "
                        "{KeepKeys: {keep_keys: [image, length]}}]")
                .find("'length' is not produced"),
            std::string::npos);
  EXPECT_NE(usage_error("[{DecodeImage: }, {ClsResizeImg: {image_shape: [3, 48, 192]}}, {ClsLabelEncode: }, "
                        "{RecAug: }]")
                .find("RecAug must come before ClsResizeImg"),
            std::string::npos);
}

// A folder with a wide and a narrow picture and a label file of `lines`.
std::string write_data(const std::string& name, const std::string& lines) {
  const std::string dir = test::fresh_dir(name);
  cv::imwrite(dir + "/wide.png", cv::Mat(30, 200, CV_8UC3, cv::Scalar(255, 255, 255)));
  cv::imwrite(dir + "/narrow.png", cv::Mat(48, 48, CV_8UC3, cv::Scalar(0, 0, 0)));
  test::write_text(dir + "/cls_gt.txt", lines);
  return dir;
}

std::shared_ptr<ClsDataset> dataset(const std::string& dir, bool training) {
  YAML::Node section = YAML::Load("dataset: {data_dir: " + dir + ", label_file_list: [" + dir +
                                        "/cls_gt.txt]}\nloader: {batch_size_per_card: 2}\n");
  section["dataset"]["transforms"] = YAML::Load(kTransforms);
  return cls_data_from_yaml(section, "Train", {"0", "180"}, 1, training).dataset;
}

TEST(ClsDataset, LoadsImageAndClassIndex) {
  const std::string dir = write_data("cls_load", "wide.png\t0\nnarrow.png\t180\n");
  const auto ds = dataset(dir, false);
  ASSERT_EQ(ds->size(), 2u);
  EXPECT_EQ(ds->label(0), 0);
  EXPECT_EQ(ds->label(1), 1);
  DataStats stats;
  const Sample wide = ds->load_sample(0, 1, &stats);
  EXPECT_EQ(wide.tensors.at("image").sizes(), (std::vector<int64_t>{3, 48, 192}));
  EXPECT_EQ(wide.tensors.at("label").item<int64_t>(), 0);
  EXPECT_EQ(wide.text, "0");
  // White is 1 after (x/255 - 0.5) / 0.5; the wide picture fills the width.
  EXPECT_FLOAT_EQ(wide.tensors.at("image")[0][24][191].item<float>(), 1.0f);
  const Sample narrow = ds->load_sample(1, 1, &stats);
  EXPECT_EQ(narrow.tensors.at("label").item<int64_t>(), 1);
  // Black is -1; a square picture is 48 wide, zero padding to its right.
  EXPECT_FLOAT_EQ(narrow.tensors.at("image")[1][10][10].item<float>(), -1.0f);
  EXPECT_FLOAT_EQ(narrow.tensors.at("image")[1][10][100].item<float>(), 0.0f);
  EXPECT_EQ(stats.replaced(), 0);
}

TEST(ClsDataset, ALabelOutsideTheListIsAnErrorNotASkip) {
  const std::string dir = write_data("cls_bad_label", "wide.png\t0\nnarrow.png\t90\n");
  try {
    dataset(dir, true);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("1 lines of Train.dataset.label_file_list"), std::string::npos) << msg;
    EXPECT_NE(msg.find("narrow.png' -> '90'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("['0', '180']"), std::string::npos) << msg;
  }
}

TEST(ClsDataset, AMissingImageIsReplacedAndCounted) {
  const std::string dir = write_data("cls_missing", "gone.png\t0\nnarrow.png\t180\n");
  const auto ds = dataset(dir, false);
  DataStats stats;
  const Sample s = ds->load_sample(0, 1, &stats);  // evaluation: the next sample replaces
  EXPECT_EQ(s.tensors.at("label").item<int64_t>(), 1);
  EXPECT_NE(s.path.find("narrow.png"), std::string::npos);
  EXPECT_EQ(stats.missing_images, 1);
}

TEST(ClsDataset, AugmentationIsDrawnFromTheSampleSeedOnly) {
  const std::string dir = write_data("cls_aug", "wide.png\t0\nnarrow.png\t180\n");
  const auto ds = dataset(dir, true);
  const torch::Tensor a = ds->load_sample(0, 42, nullptr).tensors.at("image");
  const torch::Tensor b = ds->load_sample(0, 42, nullptr).tensors.at("image");
  EXPECT_TRUE(torch::equal(a, b));
  // ... and it is applied: some seed changes the picture evaluation sees.
  const torch::Tensor plain = dataset(dir, false)->load_sample(0, 42, nullptr).tensors.at("image");
  bool changed = false;
  for (uint64_t seed = 1; seed <= 20 && !changed; ++seed)
    changed = !torch::equal(ds->load_sample(0, seed, nullptr).tensors.at("image"), plain);
  EXPECT_TRUE(changed);
}

}  // namespace
}  // namespace ocrforge
