// rec_input_size: the recognizer's input size as its config evaluates it.
#include "ocrforge/train/tasks/rec/rec_input_size.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"
#include "test_support.h"

namespace ocrforge {
namespace {

YAML::Node cfg(const std::string& text) { return YAML::Load(text); }

TEST(RecInputSize, EvalWinsOverTrainAndOtherStepsAreSkipped) {
  const auto root = cfg(
      "Train: {dataset: {transforms: [{DecodeImage: {img_mode: BGR}}, {RecResizeImg: {image_shape: [3, 32, 100]}}]}}\n"
      "Eval: {dataset: {transforms: [{DecodeImage: null}, {CTCLabelEncode: null}, "
      "{RecResizeImg: {image_shape: [3, 48, 480]}}]}}\n");
  EXPECT_EQ(rec_input_size(root), (std::pair<int, int>{48, 480}));
}

TEST(RecInputSize, TrainWhenEvalHasNoneAndTheDefaultOtherwise) {
  EXPECT_EQ(rec_input_size(cfg("Train: {dataset: {transforms: [{RecResizeImg: {image_shape: [3, 32, 100]}}]}}\n"
                               "Eval: {dataset: {transforms: [{DecodeImage: null}]}}\n")),
            (std::pair<int, int>{32, 100}));
  EXPECT_EQ(rec_input_size(cfg("Global: {use_gpu: false}\n")), (std::pair<int, int>{48, 320}));
  EXPECT_EQ(rec_input_size(cfg("Eval: null\n")), (std::pair<int, int>{48, 320}));
}

// PaddleOCR's SVTR configs resize with SVTRRecResizeImg in Eval (ch_PP-OCRv4_rec_svtr_large.yml).
TEST(RecInputSize, SvtrRecResizeImgCountsToo) {
  EXPECT_EQ(rec_input_size(cfg("Train: {dataset: {transforms: [{RecResizeImg: {image_shape: [3, 32, 100]}}]}}\n"
                               "Eval: {dataset: {transforms: [{SVTRRecResizeImg: {image_shape: [3, 48, 320]}}]}}\n")),
            (std::pair<int, int>{48, 320}));
}

// SVTRNet's one input size against the data, before the first batch.
TEST(RecInputSize, AFixedSizeBackboneMustMatchTheResize) {
  BackboneSpec b;
  b.name = "SVTRNet";
  b.svtr.img_size = {48, 320};
  const auto root = cfg("Train: {dataset: {transforms: [{RecResizeImg: {image_shape: [3, 48, 320]}}]}}\n"
                        "Eval: {dataset: {transforms: [{SVTRRecResizeImg: {image_shape: [3, 32, 320]}}]}}\n");
  std::string msg = test::message_of<UsageError>([&] { check_fixed_input_size(b, root, "Architecture.Backbone"); });
  EXPECT_NE(msg.find("Eval.dataset.transforms.SVTRRecResizeImg.image_shape: [3, 32, 320]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Architecture.Backbone.img_size is [48, 320]"), std::string::npos) << msg;
  msg = test::message_of<UsageError>([&] {
    check_fixed_input_size(b, cfg("Train: {sampler: {name: MultiScaleSampler}}\n"), "Architecture.Models.Teacher.Backbone");
  });
  EXPECT_NE(msg.find("Train.sampler"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Architecture.Models.Teacher.Backbone (SVTRNet)"), std::string::npos) << msg;
  EXPECT_NO_THROW(check_fixed_input_size(
      b, cfg("Train: {dataset: {transforms: [{RecResizeImg: {image_shape: [3, 48, 320]}}]}}\n"), "Architecture.Backbone"));
  b.name = "PPLCNetV3";  // takes any size
  EXPECT_NO_THROW(check_fixed_input_size(b, root, "Architecture.Backbone"));
}

TEST(RecInputSize, AMalformedShapeNamesTheKey) {
  try {
    rec_input_size(cfg("Eval: {dataset: {transforms: [{RecResizeImg: {image_shape: wide}}]}}\n"));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Eval.dataset.transforms.RecResizeImg.image_shape"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ocrforge
