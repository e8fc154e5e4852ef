// IaaAugment and EastRandomCropData move image and polygons together.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "ocrforge/train/tasks/det/det_augment.h"

using namespace ocrforge;

namespace {

DetPolygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// Black image with each polygon filled white.
cv::Mat canvas(cv::Size size, const std::vector<DetPolygon>& polys) {
  cv::Mat img = cv::Mat::zeros(size, CV_8UC3);
  for (const auto& p : polys) {
    std::vector<cv::Point> q;
    for (const auto& v : p) q.emplace_back(cvRound(v.x), cvRound(v.y));
    cv::fillPoly(img, std::vector<std::vector<cv::Point>>{q}, cv::Scalar::all(255));
  }
  return img;
}

cv::Point2f centre(const DetPolygon& p) {
  cv::Point2f c(0, 0);
  for (const auto& v : p) c += v;
  return c * (1.0f / p.size());
}

int grey(const cv::Mat& img, cv::Point2f p) { return img.at<cv::Vec3b>(cvRound(p.y), cvRound(p.x))[0]; }

}  // namespace

TEST(DetAugment, FliplrMirrorsPointsAsImgaug) {
  std::vector<DetPolygon> polys = {rect(10, 10, 30, 20)};
  cv::Mat img = canvas({100, 50}, polys);
  DataRng rng(1);
  iaa_augment({{DetIaaStep::Kind::kFliplr, 1.0, 0, 0}}, rng, &img, &polys);
  ASSERT_EQ(polys.size(), 1u);
  ASSERT_EQ(polys[0].size(), 4u);
  // x -> 100 - x; y unchanged.
  EXPECT_EQ(polys[0][0], cv::Point2f(90, 10));
  EXPECT_EQ(polys[0][1], cv::Point2f(70, 10));
  EXPECT_EQ(polys[0][2], cv::Point2f(70, 20));
  EXPECT_EQ(polys[0][3], cv::Point2f(90, 20));
  EXPECT_EQ(img.size(), cv::Size(100, 50));
  EXPECT_EQ(grey(img, {80, 15}), 255);
  EXPECT_EQ(grey(img, {20, 15}), 0);
}

TEST(DetAugment, FliplrWithProbabilityZeroKeepsTheSample) {
  std::vector<DetPolygon> polys = {rect(10, 10, 30, 20)};
  cv::Mat img = canvas({100, 50}, polys);
  DataRng rng(1);
  iaa_augment({{DetIaaStep::Kind::kFliplr, 0.0, 0, 0}}, rng, &img, &polys);
  EXPECT_EQ(polys[0][0], cv::Point2f(10, 10));
  EXPECT_EQ(grey(img, {20, 15}), 255);
}

TEST(DetAugment, RotateNinetyDegreesAboutTheCentre) {
  // 101 x 101: centre (50, 50); imgaug's positive angle maps (x, y) -> (100 - y, x).
  std::vector<DetPolygon> polys = {rect(10, 20, 30, 40)};
  cv::Mat img = canvas({101, 101}, polys);
  DataRng rng(1);
  iaa_augment({{DetIaaStep::Kind::kAffine, 0, 90, 90}}, rng, &img, &polys);
  ASSERT_EQ(polys[0].size(), 4u);
  EXPECT_NEAR(polys[0][0].x, 80, 1e-4);
  EXPECT_NEAR(polys[0][0].y, 10, 1e-4);
  EXPECT_NEAR(polys[0][2].x, 60, 1e-4);
  EXPECT_NEAR(polys[0][2].y, 30, 1e-4);
  EXPECT_EQ(img.size(), cv::Size(101, 101));
  EXPECT_EQ(grey(img, centre(polys[0])), 255);
  EXPECT_EQ(grey(img, {20, 30}), 0);  // where the box was
}

TEST(DetAugment, ResizeScalesImageAndPoints) {
  std::vector<DetPolygon> polys = {rect(10, 10, 30, 20)};
  cv::Mat img = canvas({100, 50}, polys);
  DataRng rng(1);
  iaa_augment({{DetIaaStep::Kind::kResize, 0, 2, 2}}, rng, &img, &polys);
  EXPECT_EQ(img.size(), cv::Size(200, 100));
  EXPECT_EQ(polys[0][2], cv::Point2f(60, 40));
  EXPECT_EQ(grey(img, centre(polys[0])), 255);
}

TEST(DetAugment, DefaultStepsKeepPolygonsOnTheirText) {
  const std::vector<DetPolygon> original = {rect(20, 20, 80, 40), rect(120, 60, 180, 90)};
  int checked = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<DetPolygon> polys = original;
    cv::Mat img = canvas({200, 120}, polys);
    DataRng rng(seed);
    iaa_augment(default_iaa_steps(), rng, &img, &polys);
    ASSERT_EQ(polys.size(), 2u);
    for (const auto& p : polys) {
      const cv::Point2f c = centre(p);
      ASSERT_TRUE(c.x >= 0 && c.y >= 0 && c.x < img.cols && c.y < img.rows) << "seed " << seed;
      EXPECT_GT(grey(img, c), 200) << "seed " << seed;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 40);
}

TEST(DetAugment, CropKeepsPolygonsConsistentWithTheImage) {
  const std::vector<DetPolygon> original = {rect(20, 20, 80, 40), rect(200, 120, 300, 150), rect(330, 30, 380, 60)};
  DetCropParams p;
  p.width = p.height = 128;
  int kept_total = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    std::vector<DetPolygon> polys = original;
    std::vector<bool> ignore = {false, false, true};
    cv::Mat img = canvas({400, 200}, polys);
    DataRng rng(seed);
    east_random_crop(p, rng, &img, &polys, &ignore);
    ASSERT_EQ(img.size(), cv::Size(128, 128));
    ASSERT_EQ(polys.size(), ignore.size());
    ASSERT_GE(polys.size(), 1u) << "a crop touches at least one cared-for box";
    int checked_here = 0;
    for (size_t i = 0; i < polys.size(); ++i) {
      if (ignore[i]) continue;  // crop edges may cut ignored boxes, never cared-for ones
      const cv::Point2f c = centre(polys[i]);
      if (c.x < 0 || c.y < 0 || c.x >= 128 || c.y >= 128) continue;  // a box touching the crop edge
      EXPECT_GT(grey(img, c), 200) << "seed " << seed;
      ++checked_here;
    }
    EXPECT_GE(checked_here, 1) << "seed " << seed;
    kept_total += checked_here;
    // keep_ratio: the scaled crop sits top-left; the bottom-right corner is padding.
    EXPECT_EQ(grey(img, {127, 127}), 0) << "seed " << seed;
  }
  EXPECT_GE(kept_total, 30);
}

TEST(DetAugment, CropWithoutCaredForTextUsesTheWholeImage) {
  std::vector<DetPolygon> polys = {rect(20, 20, 80, 40)};
  std::vector<bool> ignore = {true};
  cv::Mat img = canvas({200, 100}, polys);
  DetCropParams p;
  p.width = 100;
  p.height = 100;
  DataRng rng(3);
  east_random_crop(p, rng, &img, &polys, &ignore);
  // Whole image scaled by 0.5 into the top-left 100 x 50.
  ASSERT_EQ(polys.size(), 1u);
  EXPECT_EQ(polys[0][0], cv::Point2f(10, 10));
  EXPECT_EQ(polys[0][2], cv::Point2f(40, 20));
  EXPECT_TRUE(ignore[0]);
}
