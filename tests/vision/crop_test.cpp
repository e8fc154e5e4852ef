// get_rotate_crop_image and the 180-degree rotation.
#include "ocrforge/vision/crop.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using ocrforge::Quad;
using ocrforge::rotate_180;
using ocrforge::rotate_crop;

TEST(Crop, AxisAlignedCropEqualsRoi) {
  cv::Mat img(60, 100, CV_8UC3);
  cv::randu(img, 0, 256);
  const cv::Mat crop = rotate_crop(img, {{{10, 5}, {50, 5}, {50, 25}, {10, 25}}});
  ASSERT_EQ(crop.size(), cv::Size(40, 20));
  EXPECT_LE(cv::norm(crop, img(cv::Rect(10, 5, 40, 20)), cv::NORM_INF), 1.0);
}

TEST(Crop, RotatedQuadGivesItsEdgeLengths) {
  // A 50 x 20 rectangle along direction (0.8, 0.6), filled with one colour.
  const Quad q = {{{20, 10}, {60, 40}, {48, 56}, {8, 26}}};
  cv::Mat img(80, 80, CV_8UC3, cv::Scalar(255, 255, 255));
  std::vector<cv::Point> poly = {{20, 10}, {60, 40}, {48, 56}, {8, 26}};
  cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly}, cv::Scalar(0, 0, 200));
  const cv::Mat crop = rotate_crop(img, q);
  ASSERT_EQ(crop.size(), cv::Size(50, 20));
  const cv::Vec3b centre = crop.at<cv::Vec3b>(10, 25);
  EXPECT_EQ(centre, cv::Vec3b(0, 0, 200));
}

TEST(Crop, TallBoxIsRotatedCounterClockwise) {
  cv::Mat img(100, 60, CV_8UC3, cv::Scalar::all(0));
  img(cv::Rect(10, 10, 20, 10)).setTo(cv::Scalar(0, 0, 255));  // top part of the box is red
  const cv::Mat crop = rotate_crop(img, {{{10, 10}, {30, 10}, {30, 70}, {10, 70}}});
  ASSERT_EQ(crop.size(), cv::Size(60, 20));  // 20 x 60 turned on its side
  // np.rot90: the top of the box ends up on the left.
  EXPECT_EQ(crop.at<cv::Vec3b>(10, 3), cv::Vec3b(0, 0, 255));
  EXPECT_EQ(crop.at<cv::Vec3b>(10, 56), cv::Vec3b(0, 0, 0));
}

TEST(Crop, RotationThresholdIsOnePointFive) {
  cv::Mat img(100, 100, CV_8UC3, cv::Scalar::all(9));
  EXPECT_EQ(rotate_crop(img, {{{0, 0}, {20, 0}, {20, 30}, {0, 30}}}).size(), cv::Size(30, 20));  // 1.5
  EXPECT_EQ(rotate_crop(img, {{{0, 0}, {20, 0}, {20, 29}, {0, 29}}}).size(), cv::Size(20, 29));  // 1.45
}

TEST(Crop, Rotate180) {
  cv::Mat img = (cv::Mat_<uchar>(2, 3) << 1, 2, 3, 4, 5, 6);
  const cv::Mat r = rotate_180(img);
  const cv::Mat expected = (cv::Mat_<uchar>(2, 3) << 6, 5, 4, 3, 2, 1);
  EXPECT_EQ(cv::norm(r, expected, cv::NORM_INF), 0.0);
}
