// DetResizeForTest sizes and the NCHW normalisation of det_preprocess.
#include "ocrforge/vision/det_resize.h"

#include <gtest/gtest.h>

using ocrforge::det_preprocess;
using ocrforge::det_target_size;
using ocrforge::DetLimitType;
using ocrforge::DetResizeParams;

TEST(DetResize, MaxShrinksLongSideAndRoundsTo32) {
  DetResizeParams p;  // max, 960
  // 1280x720 * 0.75 = 960x540; 540/32 = 16.875 -> 17 -> 544.
  EXPECT_EQ(det_target_size({1280, 720}, p), cv::Size(960, 544));
}

TEST(DetResize, MaxKeepsSmallImagesButRounds) {
  DetResizeParams p;
  EXPECT_EQ(det_target_size({100, 50}, p), cv::Size(96, 64));  // 3.125 -> 3, 1.5625 -> 2
}

TEST(DetResize, RoundsHalfToEvenLikePython) {
  DetResizeParams p;
  // 80/32 = 2.5 -> 2 (not 3); 48/32 = 1.5 -> 2.
  EXPECT_EQ(det_target_size({80, 48}, p), cv::Size(64, 64));
  EXPECT_EQ(det_target_size({112, 16}, p), cv::Size(128, 32));  // 3.5 -> 4; 0.5 -> 0 -> at least 32
}

TEST(DetResize, NeverBelow32) { EXPECT_EQ(det_target_size({10, 5}, DetResizeParams{}), cv::Size(32, 32)); }

TEST(DetResize, MinEnlargesShortSide) {
  DetResizeParams p;
  p.limit_type = DetLimitType::Min;
  p.limit_side_len = 64;
  EXPECT_EQ(det_target_size({40, 20}, p), cv::Size(128, 64));  // ratio 3.2
  EXPECT_EQ(det_target_size({200, 100}, p), cv::Size(192, 96));  // already big enough
}

TEST(DetResize, MaxSideLimitCapsBeforeRounding) {
  DetResizeParams p;
  p.limit_type = DetLimitType::Min;
  p.limit_side_len = 2000;
  // 1000x100 -> 20000x2000 -> capped by 0.2 -> 4000x400; 400/32 = 12.5 -> 12 -> 384.
  EXPECT_EQ(det_target_size({1000, 100}, p), cv::Size(4000, 384));
}

TEST(DetResize, PreprocessNormalisesBgrPlanes) {
  cv::Mat img(32, 64, CV_8UC3, cv::Scalar(10, 128, 250));
  const auto in = det_preprocess(img, DetResizeParams{});
  ASSERT_EQ(in.size, cv::Size(64, 32));
  ASSERT_EQ(in.chw.size(), 3u * 32 * 64);
  const size_t plane = 32 * 64;
  EXPECT_NEAR(in.chw[0], (10 / 255.0 - 0.485) / 0.229, 1e-5);  // B plane uses mean[0]
  EXPECT_NEAR(in.chw[plane + 100], (128 / 255.0 - 0.456) / 0.224, 1e-5);
  EXPECT_NEAR(in.chw[2 * plane + plane - 1], (250 / 255.0 - 0.406) / 0.225, 1e-5);
  EXPECT_FLOAT_EQ(in.ratio_h, 1.f);
  EXPECT_FLOAT_EQ(in.ratio_w, 1.f);
}

TEST(DetResize, PreprocessReportsRatios) {
  cv::Mat img(50, 100, CV_8UC3, cv::Scalar::all(0));
  const auto in = det_preprocess(img, DetResizeParams{});
  EXPECT_EQ(in.size, cv::Size(96, 64));
  EXPECT_FLOAT_EQ(in.ratio_w, 0.96f);
  EXPECT_FLOAT_EQ(in.ratio_h, 1.28f);
  EXPECT_NEAR(in.chw[0], -0.485 / 0.229, 1e-5);
}
