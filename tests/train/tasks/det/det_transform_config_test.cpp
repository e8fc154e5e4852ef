// The detection transform list and data section of a PaddleOCR config ->
// typed specs; mistakes name the full key path.
#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_data_config.h"
#include "ocrforge/train/tasks/det/det_transform_config.h"
#include "ocrforge/train/tasks/det/det_transforms.h"
#include "test_support.h"

using namespace ocrforge;

namespace {

// PaddleOCR's configs/det/det_mv3_db.yml data sections (paths changed).
const char* kTrain = R"(
dataset:
  name: SimpleDataSet
  data_dir: DATA
  label_file_list: [DATA/det_gt.txt]
  ratio_list: [1.0]
  transforms:
    - DecodeImage: {img_mode: BGR, channel_first: False}
    - DetLabelEncode:
    - IaaAugment:
        augmenter_args:
          - {type: Fliplr, args: {p: 0.5}}
          - {type: Affine, args: {rotate: [-10, 10]}}
          - {type: Resize, args: {size: [0.5, 3]}}
    - EastRandomCropData: {size: [640, 640], max_tries: 50, keep_ratio: true}
    - MakeBorderMap: {shrink_ratio: 0.4, thresh_min: 0.3, thresh_max: 0.7}
    - MakeShrinkMap: {shrink_ratio: 0.4, min_text_size: 8}
    - NormalizeImage:
        scale: 1./255.
        mean: [0.485, 0.456, 0.406]
        std: [0.229, 0.224, 0.225]
        order: 'hwc'
    - ToCHWImage:
    - KeepKeys: {keep_keys: ['image', 'threshold_map', 'threshold_mask', 'shrink_map', 'shrink_mask']}
loader: {shuffle: True, drop_last: False, batch_size_per_card: 16, num_workers: 8, use_shared_memory: True}
)";

const char* kEval = R"(
dataset:
  name: SimpleDataSet
  data_dir: DATA
  label_file_list: [DATA/det_gt.txt]
  transforms:
    - DecodeImage: {img_mode: BGR, channel_first: False}
    - DetLabelEncode:
    - DetResizeForTest: {limit_side_len: 960, limit_type: max}
    - NormalizeImage: {scale: 1./255., mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], order: 'hwc'}
    - ToCHWImage:
    - KeepKeys: {keep_keys: ['image', 'shape', 'polys', 'ignore_tags']}
loader: {shuffle: False, drop_last: False, batch_size_per_card: 1, num_workers: 2}
)";

YAML::Node section(const char* text) {
  std::string s = text;
  const std::string data = test::data_dir() + "/det_toy";
  for (size_t p; (p = s.find("DATA")) != std::string::npos;) s.replace(p, 4, data);
  return YAML::Load(s);
}

// The message of the UsageError `f` throws ("" when it does not throw).
template <typename F>
std::string usage_error(F f) {
  return ocrforge::test::message_of<UsageError>([&] {
    f();
  });
}

YAML::Node transforms_with(const std::string& replaced, const std::string& by) {
  YAML::Node s = section(kTrain);
  YAML::Node list = s["dataset"]["transforms"];
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].begin()->first.as<std::string>() == replaced) list[i] = YAML::Load(by);
  return list;
}

}  // namespace

TEST(DetTransformConfig, ReadsPaddleOcrsTrainingList) {
  const DetTransformSpec t = det_transform_spec_from_yaml(section(kTrain)["dataset"]["transforms"], "Train.dataset.transforms", true);
  EXPECT_TRUE(t.training);
  EXPECT_TRUE(t.use_iaa);
  ASSERT_EQ(t.iaa.size(), 3u);
  EXPECT_EQ(t.iaa[0].kind, DetIaaStep::Kind::kFliplr);
  EXPECT_DOUBLE_EQ(t.iaa[0].p, 0.5);
  EXPECT_EQ(t.iaa[1].kind, DetIaaStep::Kind::kAffine);
  EXPECT_DOUBLE_EQ(t.iaa[1].lo, -10);
  EXPECT_DOUBLE_EQ(t.iaa[1].hi, 10);
  EXPECT_EQ(t.iaa[2].kind, DetIaaStep::Kind::kResize);
  EXPECT_DOUBLE_EQ(t.iaa[2].hi, 3);
  EXPECT_TRUE(t.use_crop);
  EXPECT_EQ(t.crop.width, 640);
  EXPECT_EQ(t.crop.max_tries, 50);
  EXPECT_DOUBLE_EQ(t.border.thresh_max, 0.7);
  EXPECT_EQ(t.shrink.min_text_size, 8);
  EXPECT_DOUBLE_EQ(t.normalize.scale, 1.0 / 255.0);  // the string "1./255."
  EXPECT_DOUBLE_EQ(t.normalize.std[2], 0.225);
  EXPECT_EQ(t.keep_keys.size(), 5u);
}

TEST(DetTransformConfig, ReadsPaddleOcrsEvalList) {
  const DetTransformSpec t = det_transform_spec_from_yaml(section(kEval)["dataset"]["transforms"], "Eval.dataset.transforms", false);
  EXPECT_FALSE(t.training);
  EXPECT_EQ(t.eval_resize.limit_side_len, 960);
  EXPECT_EQ(t.eval_resize.limit_type, DetLimitType::Max);
}

TEST(DetTransformConfig, DetResizeForTestDefaultsAsPaddleOcr) {
  const DetTransformSpec t = det_transform_spec_from_yaml(
      YAML::Load("[{DecodeImage: }, {DetLabelEncode: }, {DetResizeForTest: }, {NormalizeImage: }, {ToCHWImage: }]"),
      "Eval.dataset.transforms", false);
  EXPECT_EQ(t.eval_resize.limit_side_len, 736);
  EXPECT_EQ(t.eval_resize.limit_type, DetLimitType::Min);
}

TEST(DetTransformConfig, ErrorsNameTheKeyPath) {
  const std::string w = "Train.dataset.transforms";
  auto msg = usage_error([&] {
    det_transform_spec_from_yaml(transforms_with("EastRandomCropData", "{EastRandomCropData: {size: [640]}}"), w, true);
  });
  EXPECT_NE(msg.find("'Train.dataset.transforms.EastRandomCropData.size'"), std::string::npos) << msg;
  msg = usage_error([&] {
    det_transform_spec_from_yaml(transforms_with("MakeShrinkMap", "{MakeShrinkMap: {shrink_ratio: 1.5}}"), w, true);
  });
  EXPECT_NE(msg.find("'Train.dataset.transforms.MakeShrinkMap.shrink_ratio'"), std::string::npos) << msg;
  const YAML::Node border = transforms_with("MakeBorderMap", "{MakeBorderMap: {thresh_mim: 0.3}}");
  msg = test::read_error(border, w, [&] { det_transform_spec_from_yaml(border, w, true); });
  EXPECT_NE(msg.find("'Train.dataset.transforms["), std::string::npos) << msg;
  EXPECT_NE(msg.find("].MakeBorderMap.thresh_mim'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("].MakeBorderMap.thresh_min'?)"), std::string::npos) << msg;
  msg = usage_error([&] {
    det_transform_spec_from_yaml(
        transforms_with("IaaAugment", "{IaaAugment: {augmenter_args: [{type: Fliplr, args: {p: 0.5}}, {type: Affin}]}}"), w, true);
  });
  EXPECT_NE(msg.find("'Train.dataset.transforms.IaaAugment.augmenter_args[1].type'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'Affine'"), std::string::npos) << msg;
  msg = usage_error([&] { det_transform_spec_from_yaml(transforms_with("NormalizeImage", "{NormalizeImage: {scale: 1./0}}"), w, true); });
  EXPECT_NE(msg.find("'Train.dataset.transforms.NormalizeImage.scale'"), std::string::npos) << msg;
  msg = usage_error([&] { det_transform_spec_from_yaml(transforms_with("MakeShrinkMap", "{MakeShrinkMaps: }"), w, true); });
  EXPECT_NE(msg.find("did you mean 'MakeShrinkMap'"), std::string::npos) << msg;
}

TEST(DetTransformConfig, RejectsTransformsOfTheOtherPipelineAndMissingOnes) {
  auto msg = usage_error([&] {
    det_transform_spec_from_yaml(transforms_with("EastRandomCropData", "{DetResizeForTest: }"), "Train.dataset.transforms", true);
  });
  EXPECT_NE(msg.find("belongs to evaluation"), std::string::npos) << msg;
  msg = usage_error([&] {
    det_transform_spec_from_yaml(section(kTrain)["dataset"]["transforms"], "Eval.dataset.transforms", false);
  });
  EXPECT_NE(msg.find("'Eval.dataset.transforms.IaaAugment' belongs to training"), std::string::npos) << msg;
  msg = usage_error([&] {
    det_transform_spec_from_yaml(YAML::Load("[{DecodeImage: }, {DetLabelEncode: }, {NormalizeImage: }, {ToCHWImage: }]"),
                                 "Train.dataset.transforms", true);
  });
  EXPECT_NE(msg.find("needs a MakeBorderMap"), std::string::npos) << msg;
  msg = usage_error([&] {
    det_transform_spec_from_yaml(YAML::Load("[{DetLabelEncode: }, {DecodeImage: }, {DetResizeForTest: }, {NormalizeImage: }, {ToCHWImage: }]"),
                                 "Eval.dataset.transforms", false);
  });
  EXPECT_NE(msg.find("DecodeImage must come before DetLabelEncode"), std::string::npos) << msg;
}

// PaddleOCR's Resize (the DB ResNet50 TIPC config lists it with no
// parameters: 640 x 640): size is [height, width]; training only, after the
// crop and before the maps.
TEST(DetTransformConfig, ResizeStretchesTheImageAndItsPolygons) {
  const std::string w = "Train.dataset.transforms";
  DetTransformSpec t = det_transform_spec_from_yaml(transforms_with("EastRandomCropData", "{Resize: }"), w, true);
  EXPECT_TRUE(t.use_resize);
  EXPECT_FALSE(t.use_crop);
  EXPECT_EQ(t.resize_size, cv::Size(640, 640));
  t = det_transform_spec_from_yaml(transforms_with("EastRandomCropData", "{Resize: {size: [320, 480]}}"), w, true);
  EXPECT_EQ(t.resize_size, cv::Size(480, 320));
  EXPECT_NE(usage_error([&] {
              det_transform_spec_from_yaml(transforms_with("EastRandomCropData", "{Resize: {size: [320]}}"), w, true);
            }).find(w + ".Resize.size"),
            std::string::npos);
  // After the maps is too late.
  YAML::Node late = transforms_with("EastRandomCropData", "{MakeBorderMap: {shrink_ratio: 0.4}}");
  late[4] = YAML::Load("{Resize: }");
  EXPECT_NE(usage_error([&] { det_transform_spec_from_yaml(late, w, true); }).find("Resize must come before"),
            std::string::npos);
  YAML::Node eval = section(kEval)["dataset"]["transforms"];
  eval[2] = YAML::Load("{Resize: }");
  EXPECT_NE(usage_error([&] { det_transform_spec_from_yaml(eval, "Eval.dataset.transforms", false); })
                .find("belongs to training"),
            std::string::npos);

  cv::Mat img(100, 200, CV_8UC3, cv::Scalar(1, 2, 3));
  std::vector<DetPolygon> polys{{{10, 20}, {190, 20}, {190, 80}, {10, 80}}};
  det_resize_with_polygons(cv::Size(400, 50), &img, &polys);
  EXPECT_EQ(img.size(), cv::Size(400, 50));
  EXPECT_EQ(img.at<cv::Vec3b>(25, 200), cv::Vec3b(1, 2, 3));
  EXPECT_FLOAT_EQ(polys[0][1].x, 380.f);
  EXPECT_FLOAT_EQ(polys[0][1].y, 10.f);
  EXPECT_FLOAT_EQ(polys[0][3].y, 40.f);
}

TEST(DetDataConfig, BuildsDatasetAndLoaderFromASection) {
  const DetDataSpec train = det_data_from_yaml(section(kTrain), "Train", 1024, true);
  ASSERT_TRUE(train.dataset);
  EXPECT_EQ(train.dataset->size(), 10u);
  EXPECT_TRUE(train.dataset->training());
  EXPECT_EQ(train.loader.batch_size, 16);
  EXPECT_EQ(train.loader.num_workers, 8);
  EXPECT_FALSE(train.loader.drop_last);
  const DetDataSpec eval = det_data_from_yaml(section(kEval), "Eval", 1024, false);
  EXPECT_FALSE(eval.dataset->training());
  EXPECT_FALSE(eval.loader.shuffle);
  YAML::Node bad = section(kEval);
  bad["dataset"]["name"] = "LMDBDataSet";
  const auto msg = usage_error([&] { det_data_from_yaml(bad, "Eval", 1, false); });
  EXPECT_NE(msg.find("'Eval.dataset.name'"), std::string::npos) << msg;
}

// PaddleOCR's det lists read with no key left over; a typo in a transform's
// parameters is named.
TEST(DetTransformConfig, AcceptsPaddleOcrsDetLists) {
  const YAML::Node eval = section(kEval)["dataset"]["transforms"];
  EXPECT_EQ(test::read_error(eval, "Eval.dataset.transforms", [&] {
              det_transform_spec_from_yaml(eval, "Eval.dataset.transforms", false);
            }),
            "");
  const YAML::Node train = section(kTrain)["dataset"]["transforms"];
  EXPECT_EQ(test::read_error(train, "Train.dataset.transforms", [&] {
              det_transform_spec_from_yaml(train, "Train.dataset.transforms", true);
            }),
            "");
  const YAML::Node typo = transforms_with("IaaAugment", "{IaaAugment: {augmentor_args: []}}");
  const std::string problem = test::read_error(typo, "Train.dataset.transforms", [&] {
    det_transform_spec_from_yaml(typo, "Train.dataset.transforms", true);
  });
  EXPECT_NE(problem.find("augmenter_args"), std::string::npos) << problem;
}

// det_mv3_db.yml's `DetResizeForTest: {image_shape: [736, 1280]}` (PaddleOCR's
// resize_type 1): a fixed size, or height + rounded-up width with keep_ratio.
TEST(DetTransformConfig, ResizeForTestImageShapeIsAFixedSize) {
  auto eval_list = [](const std::string& resize) {
    YAML::Node list = section(kEval)["dataset"]["transforms"];
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i].begin()->first.as<std::string>() == "DetResizeForTest") list[i] = YAML::Load(resize);
    return list;
  };
  const DetTransformSpec fixed =
      det_transform_spec_from_yaml(eval_list("{DetResizeForTest: {image_shape: [736, 1280]}}"), "Eval.dataset.transforms", false);
  EXPECT_EQ(det_eval_target_size({1000, 500}, fixed), cv::Size(1280, 736));
  const DetTransformSpec kept = det_transform_spec_from_yaml(
      eval_list("{DetResizeForTest: {image_shape: [736, 1280], keep_ratio: true}}"), "Eval.dataset.transforms", false);
  // 1000 * 736 / 500 = 1472 -> ceil(1472 / 32) * 32 = 1472; 1001 * 736 / 500 = 1473.5 -> 1504
  EXPECT_EQ(det_eval_target_size({1000, 500}, kept), cv::Size(1472, 736));
  EXPECT_EQ(det_eval_target_size({1001, 500}, kept), cv::Size(1504, 736));
  const DetTransformSpec limit =
      det_transform_spec_from_yaml(eval_list("{DetResizeForTest: {limit_side_len: 640, limit_type: max}}"), "Eval.dataset.transforms", false);
  EXPECT_EQ(det_eval_target_size({1280, 720}, limit), det_target_size({1280, 720}, limit.eval_resize));
  const std::string msg = usage_error([&] {
    det_transform_spec_from_yaml(eval_list("{DetResizeForTest: {image_shape: [736]}}"), "Eval.dataset.transforms", false);
  });
  EXPECT_NE(msg.find("DetResizeForTest.image_shape"), std::string::npos) << msg;
}

// PaddleOCR's PP-OCRv4 det configs give the map makers total_epoch; its
// SimpleDataSet hands them Global.seed as `epoch` when the data is built once,
// so shrink_ratio grows by 0.2 * seed / total_epoch.
TEST(DetTransformConfig, TotalEpochRaisesTheShrinkRatioAsPaddleOcrsSeededDataSet) {
  YAML::Node list = transforms_with("MakeBorderMap", "{MakeBorderMap: {shrink_ratio: 0.4, total_epoch: 500}}");
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].begin()->first.as<std::string>() == "MakeShrinkMap")
      list[i] = YAML::Load("{MakeShrinkMap: {shrink_ratio: 0.4, min_text_size: 8, total_epoch: 500}}");
  const DetTransformSpec s = det_transform_spec_from_yaml(list, "Train.dataset.transforms", true, 1024.0);
  EXPECT_NEAR(s.border.shrink_ratio, 0.4 + 0.2 * 1024 / 500, 1e-12);
  EXPECT_NEAR(s.shrink.shrink_ratio, 0.4 + 0.2 * 1024 / 500, 1e-12);
  // Without total_epoch the ratio is the config's.
  EXPECT_DOUBLE_EQ(det_transform_spec_from_yaml(section(kTrain)["dataset"]["transforms"], "T", true, 1024.0).shrink.shrink_ratio,
                   0.4);
  // Data rebuilt every epoch (a ratio below 1): the ratio would change per epoch.
  EXPECT_NE(usage_error([&] { det_transform_spec_from_yaml(list, "Train.dataset.transforms", true, std::nullopt); })
                .find("not supported yet"),
            std::string::npos);
  // A ratio pushed to 1 or more leaves no text region: refused, naming the key.
  const YAML::Node short_run = transforms_with("MakeBorderMap", "{MakeBorderMap: {total_epoch: 100}}");
  const std::string e = usage_error([&] { det_transform_spec_from_yaml(short_run, "Train.dataset.transforms", true, 1024.0); });
  EXPECT_NE(e.find("Train.dataset.transforms.MakeBorderMap.total_epoch"), std::string::npos) << e;
  EXPECT_NE(e.find("not below 1"), std::string::npos) << e;
  EXPECT_NE(e.find("PaddleOCR fails on this config too"), std::string::npos) << e;
}

// PP-OCRv4's seal detection configs evaluate with `DetResizeForTest:
// {resize_long: 736}` (PaddleOCR's resize_type 2): the longer side to 736,
// each side then rounded up to a multiple of 128.
TEST(DetTransformConfig, ResizeLongIsPaddleOcrsResizeType2) {
  auto eval_list = [](const std::string& resize) {
    YAML::Node list = YAML::Load("[{DecodeImage: }, {DetLabelEncode: }, {DetResizeForTest: }, {NormalizeImage: }, "
                                 "{ToCHWImage: }]");
    list[2] = YAML::Load(resize);
    return list;
  };
  const DetTransformSpec t =
      det_transform_spec_from_yaml(eval_list("{DetResizeForTest: {resize_long: 736}}"), "Eval.dataset.transforms", false);
  EXPECT_EQ(t.eval_resize_long, 736);
  // 1280 x 720: ratio 0.575, 736 x 414 -> 768 x 512.
  EXPECT_EQ(det_eval_target_size({1280, 720}, t), cv::Size(768, 512));
  // Portrait 300 x 1000: ratio 0.736, int(220.8) = 220 -> 256, 736 -> 768.
  EXPECT_EQ(det_eval_target_size({300, 1000}, t), cv::Size(256, 768));
  // Square: the width's ratio; 256 x 256 -> 736 -> 768 both.
  EXPECT_EQ(det_eval_target_size({256, 256}, t), cv::Size(768, 768));
  const std::string msg = usage_error([&] {
    det_transform_spec_from_yaml(eval_list("{DetResizeForTest: {resize_long: 736, limit_side_len: 960}}"),
                                 "Eval.dataset.transforms", false);
  });
  EXPECT_NE(msg.find("DetResizeForTest.resize_long"), std::string::npos) << msg;
}
