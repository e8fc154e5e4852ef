// RecAug and the TIA warps on the real toy crops.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/label_file.h"
#include "ocrforge/train/tasks/rec/rec_aug.h"
#include "ocrforge/train/tasks/rec/tia.h"
#include "rec_data_fixtures.h"

namespace ocrforge {
namespace {

std::vector<cv::Mat> toy_crops() {
  std::vector<cv::Mat> out;
  for (const auto& l : read_rec_labels(test::rec_toy_labels()))
    out.push_back(cv::imread(test::rec_toy_dir() + "/" + l.path, cv::IMREAD_COLOR));
  return out;
}

bool same(const cv::Mat& a, const cv::Mat& b) {
  return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0.0;
}

RecAugParams all(double p) { return {p, p, p, p, p, p, p}; }

TEST(RecAug, KeepsTypeAndWidthAndCropsAtMostEightRows) {
  for (const cv::Mat& img : toy_crops()) {
    ASSERT_FALSE(img.empty());
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      DataRng rng(seed);
      const cv::Mat out = rec_aug(img, all(1.0), rng);
      EXPECT_EQ(out.type(), CV_8UC3);
      EXPECT_EQ(out.cols, img.cols);
      EXPECT_LE(out.rows, img.rows);
      EXPECT_GE(out.rows, img.rows - 8);
      if (img.rows < 20) {
        EXPECT_EQ(out.rows, img.rows);  // crop needs h, w >= 20
      }
    }
  }
}

TEST(RecAug, IsDeterministicForAGivenSeed) {
  const auto crops = toy_crops();
  int differing = 0;
  for (const cv::Mat& img : crops) {
    DataRng a(42), b(42), c(43);
    const cv::Mat x = rec_aug(img, RecAugParams{}, a);
    const cv::Mat y = rec_aug(img, RecAugParams{}, b);
    const cv::Mat z = rec_aug(img, RecAugParams{}, c);
    EXPECT_TRUE(same(x, y));
    differing += same(x, z) ? 0 : 1;
  }
  EXPECT_GT(differing, 0);
}

TEST(RecAug, ZeroProbabilitiesLeaveTheImageAlone) {
  for (const cv::Mat& img : toy_crops()) {
    DataRng rng(7);
    const cv::Mat out = rec_aug(img, all(0.0), rng);
    EXPECT_TRUE(same(out, img));
    EXPECT_NE(out.data, img.data);  // a copy: the caller's image is never aliased
  }
}

TEST(RecAug, ReverseOnlyInvertsPixels) {
  RecAugParams p = all(0.0);
  p.reverse_prob = 1.0;
  const cv::Mat img = toy_crops()[0];
  DataRng rng(1);
  cv::Mat expected;
  cv::bitwise_not(img, expected);
  EXPECT_TRUE(same(rec_aug(img, p, rng), expected));
}

TEST(RecAug, BlurAndNoiseKeepTheTextLegible) {
  // Blur is a 5x5 sigma-1 gaussian; noise changes pixels by a step or so.
  const cv::Mat img = toy_crops()[0];
  RecAugParams p = all(0.0);
  p.noise_prob = 1.0;
  DataRng rng(3);
  const cv::Mat noisy = rec_aug(img, p, rng);
  EXPECT_LE(cv::norm(noisy, img, cv::NORM_INF), 3.0);
  p = all(0.0);
  p.blur_prob = 1.0;
  cv::Mat expected;
  cv::GaussianBlur(img, expected, cv::Size(5, 5), 1.0);
  EXPECT_TRUE(same(rec_aug(img, p, rng), expected));
}

TEST(Tia, WarpsKeepSizeAndStayCloseToTheSource) {
  for (const cv::Mat& img : toy_crops()) {
    if (img.rows < 20 || img.cols < 20) continue;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      DataRng rng(seed);
      const cv::Mat d = tia_distort(img, 4, rng);
      const cv::Mat s = tia_stretch(img, 4, rng);
      const cv::Mat p = tia_perspective(img, rng);
      // Legible: a mild warp changes the crop far less than inverting it does.
      cv::Mat inverted, diff;
      cv::bitwise_not(img, inverted);
      cv::absdiff(inverted, img, diff);
      const double inverted_change = cv::mean(diff)[0];
      for (const cv::Mat* m : {&d, &s, &p}) {
        EXPECT_EQ(m->size(), img.size());
        EXPECT_EQ(m->type(), CV_8UC3);
        cv::absdiff(*m, img, diff);
        EXPECT_LT(cv::mean(diff)[0], 0.6 * inverted_change);
      }
    }
  }
  DataRng a(9), b(9);
  const cv::Mat img = toy_crops()[0];
  EXPECT_TRUE(same(tia_distort(img, 5, a), tia_distort(img, 5, b)));
}

TEST(Tia, StretchKeepsTheCornersColumns) {
  // Corners do not move in tia_stretch: the first and last columns are unchanged.
  const cv::Mat img = toy_crops()[0];
  DataRng rng(11);
  const cv::Mat s = tia_stretch(img, 4, rng);
  EXPECT_EQ(cv::norm(s.col(0), img.col(0), cv::NORM_INF), 0.0);
}

}  // namespace
}  // namespace ocrforge
