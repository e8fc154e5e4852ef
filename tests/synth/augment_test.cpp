// Tests for the geometric and photometric augmentations (ocrforge/synth/augment.h).
#include "ocrforge/synth/augment.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "ocrforge/synth/det_layout.h"

using namespace ocrforge;

TEST(SynthAugment, LineWarpMapsTheBoxIntoItsOutput) {
  const cv::Rect2d box(10, 20, 200, 50);
  for (uint64_t i = 0; i < 50; ++i) {
    SampleRng rng(1, i);
    cv::Size out;
    const cv::Matx33d h = random_line_warp(box, 5, 0.2, 0.06, rng, &out);
    const auto pts = transform_points(h, rect_corners(box));
    float min_x = 1e9f, min_y = 1e9f, max_x = -1e9f, max_y = -1e9f;
    for (const auto& p : pts) {
      min_x = std::min(min_x, p.x), min_y = std::min(min_y, p.y);
      max_x = std::max(max_x, p.x), max_y = std::max(max_y, p.y);
    }
    EXPECT_NEAR(min_x, 0, 1e-3);
    EXPECT_NEAR(min_y, 0, 1e-3);
    EXPECT_LE(max_x, out.width + 1e-3);
    EXPECT_LE(max_y, out.height + 1e-3);
    EXPECT_GT(max_x, out.width - 1.001);
  }
}

TEST(SynthAugment, NoAugmentationIsATranslation) {
  SampleRng rng(1, 1);
  cv::Size out;
  const cv::Matx33d h = random_line_warp(cv::Rect2d(5, 7, 30, 10), 0, 0, 0, rng, &out);
  EXPECT_EQ(out, cv::Size(30, 10));
  const auto p = transform_points(h, {{5, 7}, {35, 17}});
  EXPECT_NEAR(p[0].x, 0, 1e-4);
  EXPECT_NEAR(p[1].y, 10, 1e-4);
}

TEST(SynthAugment, PhotometricIsDeterministicAndOptional) {
  cv::Mat base(20, 40, CV_8UC3, cv::Scalar(100, 150, 200));
  cv::rectangle(base, cv::Rect(10, 5, 10, 10), cv::Scalar(0, 0, 0), cv::FILLED);
  SynthAugmentParams p;
  p.blur_prob = p.noise_prob = 1.0;
  cv::Mat a = base.clone(), b = base.clone();
  SampleRng ra(2, 3), rb(2, 3);
  photometric_augment(a, p, ra);
  photometric_augment(b, p, rb);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0.0);
  EXPECT_GT(cv::norm(a, base, cv::NORM_INF), 0.0);
  p.blur_prob = p.noise_prob = 0.0;
  cv::Mat c = base.clone();
  SampleRng rc(2, 3);
  photometric_augment(c, p, rc);
  EXPECT_EQ(cv::norm(c, base, cv::NORM_INF), 0.0);
}

TEST(SynthAugment, JpegQualityInRange) {
  SynthAugmentParams p;
  p.jpeg_quality = {60, 70};
  for (uint64_t i = 0; i < 50; ++i) {
    SampleRng rng(1, i);
    const int q = draw_jpeg_quality(p, rng);
    EXPECT_GE(q, 60);
    EXPECT_LE(q, 70);
  }
}

TEST(SynthRandom, StreamsDependOnSeedIndexAndStream) {
  SampleRng a(1, 2, 0), b(1, 2, 0), c(1, 3, 0), d(2, 2, 0), e(1, 2, 1);
  const double va = a.uniform(0, 1);
  EXPECT_EQ(va, b.uniform(0, 1));
  EXPECT_NE(va, c.uniform(0, 1));
  EXPECT_NE(va, d.uniform(0, 1));
  EXPECT_NE(va, e.uniform(0, 1));
  SampleRng w(1, 1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(w.weighted({0.0, 1.0, 0.0}), 1u);
  for (int i = 0; i < 100; ++i) {
    const int v = w.uniform_int(3, 5);
    EXPECT_GE(v, 3);
    EXPECT_LE(v, 5);
  }
}
