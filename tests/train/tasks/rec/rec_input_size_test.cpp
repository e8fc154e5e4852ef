// rec_input_size: the recognizer's input size as its config evaluates it.
#include "ocrforge/train/tasks/rec/rec_input_size.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

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
