// resize_norm_img: aspect-preserving width, [-1, 1] values, zero padding.
#include "ocrforge/vision/rec_resize.h"

#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using ocrforge::rec_resize_normalize;

TEST(RecResize, KeepsAspectRatioAndPadsWithZeros) {
  cv::Mat img(32, 100, CV_8UC3, cv::Scalar(0, 255, 51));
  std::vector<float> dst(3 * 48 * 320, 7.f);
  // 48 * 100 / 32 = 150 columns of image, the rest padding.
  EXPECT_FLOAT_EQ(rec_resize_normalize(img, 48, 320, dst.data()), 150.f / 320.f);
  const size_t plane = 48 * 320;
  EXPECT_FLOAT_EQ(dst[0], -1.f);               // B = 0
  EXPECT_FLOAT_EQ(dst[plane + 149], 1.f);      // G = 255, last image column
  EXPECT_NEAR(dst[2 * plane + 47 * 320 + 10], 51 / 255.0 / 0.5 - 1.0, 1e-6);
  EXPECT_FLOAT_EQ(dst[150], 0.f);              // first padding column
  EXPECT_FLOAT_EQ(dst[2 * plane + 47 * 320 + 319], 0.f);
}

TEST(RecResize, CeilsTheWidth) {
  cv::Mat img(30, 31, CV_8UC3, cv::Scalar::all(255));
  std::vector<float> dst(3 * 48 * 320);
  // 48 * 31 / 30 = 49.6 -> 50 columns.
  EXPECT_FLOAT_EQ(rec_resize_normalize(img, 48, 320, dst.data()), 50.f / 320.f);
  EXPECT_FLOAT_EQ(dst[49], 1.f);
  EXPECT_FLOAT_EQ(dst[50], 0.f);
}

TEST(RecResize, WideImagesFillTheWholeWidth) {
  cv::Mat img(10, 1000, CV_8UC3, cv::Scalar::all(255));
  std::vector<float> dst(3 * 48 * 320);
  EXPECT_FLOAT_EQ(rec_resize_normalize(img, 48, 320, dst.data()), 1.f);
  EXPECT_FLOAT_EQ(dst[319], 1.f);
}

TEST(RecResize, MatchesBilinearResize) {
  cv::Mat img(20, 40, CV_8UC3);
  cv::randu(img, 0, 256);
  std::vector<float> dst(3 * 48 * 200);
  rec_resize_normalize(img, 48, 200, dst.data());
  cv::Mat ref;
  cv::resize(img, ref, cv::Size(96, 48), 0, 0, cv::INTER_LINEAR);
  const size_t plane = 48 * 200;
  const cv::Vec3b px = ref.at<cv::Vec3b>(17, 33);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(dst[c * plane + 17 * 200 + 33], px[c] / 127.5 - 1.0, 1e-6);
}

TEST(RecWidthCap, SqueezesLinesWiderThanPaddleOcrsCap) {
  // 30000 x 16 at height 48 would be a 90000-wide recognition input.
  cv::Mat line(16, 30000, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::Mat capped = ocrforge::cap_rec_width(line, 48);
  EXPECT_EQ(capped.cols, ocrforge::kRecMaxWidth);
  EXPECT_EQ(capped.rows, 48);
  EXPECT_EQ(ocrforge::kRecMaxWidth, 3200) << "PaddleX OCRReisizeNormImg.max_imgW";
}

TEST(RecWidthCap, LeavesLinesWithinTheCapUntouched) {
  cv::Mat line(32, 2000, CV_8UC3, cv::Scalar(1, 2, 3));  // 3000 wide at height 48
  cv::Mat same = ocrforge::cap_rec_width(line, 48);
  EXPECT_EQ(same.data, line.data) << "no copy when no cap applies";
  cv::Mat edge(48, 3200, CV_8UC3);
  EXPECT_EQ(ocrforge::cap_rec_width(edge, 48).cols, 3200);
}
