// Label polygon -> recognition crop: point order, polygons, degenerate regions.
#include "ocrforge/vision/region_crop.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using ocrforge::crop_label_region;

namespace {

// White picture with a red 40 x 20 block at (30, 10).
cv::Mat picture() {
  cv::Mat img(60, 120, CV_8UC3, cv::Scalar(255, 255, 255));
  cv::rectangle(img, cv::Rect(30, 10, 40, 20), cv::Scalar(0, 0, 200), cv::FILLED);
  return img;
}

}  // namespace

TEST(RegionCrop, FourPointsInAnyOrderGiveTheSameUprightCrop) {
  const cv::Mat img = picture();
  const cv::Mat a = crop_label_region(img, {{30, 10}, {70, 10}, {70, 30}, {30, 30}});
  const cv::Mat b = crop_label_region(img, {{70, 30}, {30, 30}, {30, 10}, {70, 10}});  // starts bottom-right
  const cv::Mat c = crop_label_region(img, {{30, 10}, {30, 30}, {70, 30}, {70, 10}});  // counter-clockwise
  ASSERT_EQ(a.size(), cv::Size(40, 20));
  EXPECT_EQ(b.size(), a.size());
  EXPECT_EQ(c.size(), a.size());
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0.0);
  EXPECT_EQ(cv::norm(a, c, cv::NORM_INF), 0.0);
  EXPECT_EQ(a.at<cv::Vec3b>(10, 20), cv::Vec3b(0, 0, 200));
}

TEST(RegionCrop, PolygonUsesItsMinimumAreaRectangle) {
  const cv::Mat img = picture();
  // An 8-point outline of the same block (points along the long edges).
  const cv::Mat crop =
      crop_label_region(img, {{30, 10}, {50, 10}, {70, 10}, {70, 20}, {70, 30}, {50, 30}, {30, 30}, {30, 20}});
  ASSERT_EQ(crop.size(), cv::Size(40, 20));
  EXPECT_EQ(crop.at<cv::Vec3b>(10, 20), cv::Vec3b(0, 0, 200));
  // A triangle still gives a crop (its bounding rectangle).
  EXPECT_FALSE(crop_label_region(img, {{30, 10}, {70, 10}, {50, 30}}).empty());
}

TEST(RegionCrop, DegenerateRegionsGiveNoCrop) {
  const cv::Mat img = picture();
  EXPECT_TRUE(crop_label_region(img, {{30, 10}, {70, 10}, {70, 10.5f}, {30, 10.5f}}).empty());  // 0.5 px tall
  EXPECT_TRUE(crop_label_region(img, {{30, 10}, {30, 10}, {30, 10}, {30, 10}}).empty());        // one point
  EXPECT_TRUE(crop_label_region(img, {{30, 10}, {70, 10}}).empty());                            // two points
  EXPECT_TRUE(crop_label_region(cv::Mat(), {{30, 10}, {70, 10}, {70, 30}, {30, 30}}).empty());
}
