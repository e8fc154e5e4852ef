#include "ocrforge/infer/text_detector.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static DetParams det_params() {
  DetParams p;
  p.model_dir = test::model_root() + "/det";
  return p;
}

TEST(TextDetector, FindsTheLinesOfARealSign) {
  TextDetector det(det_params(), RuntimeParams{});
  cv::Mat img = cv::imread(test::data_dir() + "/samples/imgs_ger_1.jpg");
  auto boxes = det.detect(img);
  ASSERT_EQ(boxes.size(), 3u);  // EPPING / Twinned with / Eppingen, Germany
  for (const auto& b : boxes) {
    EXPECT_GE(b.score, 0.6f);
    for (const auto& p : b.quad) {
      EXPECT_GE(p.x, 0);
      EXPECT_LE(p.x, img.cols);
      EXPECT_GE(p.y, 0);
      EXPECT_LE(p.y, img.rows);
    }
    EXPECT_LT(b.quad[0].x, b.quad[1].x);  // clockwise from top-left
    EXPECT_LT(b.quad[1].y, b.quad[2].y);
  }
  EXPECT_EQ(det.stats().images, 1);
  EXPECT_GT(det.stats().inference_ms, 0);
}

TEST(TextDetector, TinyAndBlankImagesGiveNoBoxes) {
  TextDetector det(det_params(), RuntimeParams{});
  EXPECT_TRUE(det.detect(cv::Mat(1, 1, CV_8UC3, cv::Scalar(0, 0, 0))).empty());
  EXPECT_TRUE(det.detect(cv::Mat(200, 300, CV_8UC3, cv::Scalar(255, 255, 255))).empty());
}

TEST(TextDetector, RecognitionModelIsRejected) {
  DetParams p = det_params();
  p.model_dir = test::model_root() + "/rec";
  try {
    TextDetector det(p, RuntimeParams{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a text detection"), std::string::npos) << e.what();
  }
}
