// Tests for backgrounds, colours and compositing (ocrforge/synth/background.h).
#include "ocrforge/synth/background.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "synth_test_support.h"

using namespace ocrforge;

TEST(SynthBackground, EveryKindHasTheRequestedSize) {
  for (int kind = 0; kind < 3; ++kind) {
    SynthBackgroundParams p;
    p.flat = kind == 0, p.gradient = kind == 1, p.noise = kind == 2;
    Backgrounds bg(p, SynthColourParams{});
    SampleRng rng(1, static_cast<uint64_t>(kind));
    cv::Mat m = bg.make(cv::Size(123, 45), rng);
    EXPECT_EQ(m.size(), cv::Size(123, 45));
    EXPECT_EQ(m.type(), CV_8UC3);
  }
}

TEST(SynthBackground, SameRngSameBytes) {
  Backgrounds bg(SynthBackgroundParams{}, SynthColourParams{});
  for (uint64_t i = 0; i < 10; ++i) {
    SampleRng a(3, i), b(3, i);
    cv::Mat x = bg.make(cv::Size(64, 32), a), y = bg.make(cv::Size(64, 32), b);
    EXPECT_EQ(cv::norm(x, y, cv::NORM_INF), 0.0);
  }
}

TEST(SynthBackground, PicturesFromAFolder) {
  const std::string dir = test::fresh_dir("synth_bg");
  cv::Mat pic(200, 300, CV_8UC3, cv::Scalar(10, 200, 30));
  cv::imwrite(dir + "/a.png", pic);
  SynthBackgroundParams p;
  p.bg_dir = dir;
  p.flat = p.gradient = p.noise = 0.0;
  p.flat = 1e-9;  // practically always a picture
  Backgrounds bg(p, SynthColourParams{});
  EXPECT_EQ(bg.picture_count(), 1u);
  SampleRng rng(1, 1);
  cv::Mat m = bg.make(cv::Size(50, 20), rng);
  const cv::Scalar mean = cv::mean(m);
  EXPECT_NEAR(mean[1], 200, 3);  // the picture's colour (washing keeps the mean)
  p.bg_dir = test::fresh_dir("synth_bg_empty");
  EXPECT_THROW(Backgrounds(p, SynthColourParams{}), Error);
}

TEST(SynthColour, TextContrastsWithTheBackground) {
  SynthColourParams p;
  for (int i = 0; i < 200; ++i) {
    SampleRng rng(7, static_cast<uint64_t>(i));
    const double bg = rng.uniform(0, 255);
    const cv::Scalar c = pick_text_colour(bg, p, rng);
    // Always possible with min_contrast <= 127: dark text on bg >= 128, light below.
    EXPECT_GE(std::abs(luma(c) - bg), p.min_contrast - 1.5) << "bg " << bg;
  }
}

TEST(SynthColour, CompositeBlendsByAlpha) {
  cv::Mat dst(1, 3, CV_8UC3, cv::Scalar(200, 200, 200));
  cv::Mat alpha = (cv::Mat_<uchar>(1, 3) << 0, 128, 255);
  composite(dst, alpha, cv::Scalar(0, 0, 0), 1.0);
  EXPECT_EQ(dst.at<cv::Vec3b>(0, 0)[0], 200);
  EXPECT_NEAR(dst.at<cv::Vec3b>(0, 1)[0], 100, 1);
  EXPECT_EQ(dst.at<cv::Vec3b>(0, 2)[0], 0);
}
