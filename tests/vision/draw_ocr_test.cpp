// The side-by-side result picture.
#include "ocrforge/vision/draw_ocr.h"

#include <fstream>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using ocrforge::default_font_path;
using ocrforge::draw_ocr_box_txt;
using ocrforge::Quad;

namespace {

const Quad kBox = {{{20, 20}, {100, 20}, {100, 50}, {20, 50}}};

cv::Mat gray_image() { return cv::Mat(80, 120, CV_8UC3, cv::Scalar::all(128)); }

// Pixels darker than 100 in every channel inside `r` of the right half.
int dark_pixels(const cv::Mat& out, cv::Rect r) {
  const cv::Mat right = out(cv::Rect(out.cols / 2, 0, out.cols / 2, out.rows));
  cv::Mat dark;
  cv::inRange(right(r), cv::Scalar::all(0), cv::Scalar::all(99), dark);
  return cv::countNonZero(dark);
}

cv::Vec3b right_px(const cv::Mat& out, int x, int y) { return out.at<cv::Vec3b>(y, out.cols / 2 + x); }

}  // namespace

TEST(DrawOcr, DefaultFontPathExistsOrIsEmpty) {
  const std::string f = default_font_path();
  if (!f.empty()) {
    EXPECT_TRUE(std::ifstream(f).good()) << f;
  }
}

TEST(DrawOcr, SideBySideLayout) {
  const cv::Mat img = gray_image();
  const cv::Mat out = draw_ocr_box_txt(img, {kBox}, {"Hi 12"});
  ASSERT_EQ(out.size(), cv::Size(240, 80));
  ASSERT_EQ(out.type(), CV_8UC3);
  // Left: blended box colour inside, untouched outside.
  EXPECT_NE(out.at<cv::Vec3b>(35, 60), cv::Vec3b(128, 128, 128));
  EXPECT_EQ(out.at<cv::Vec3b>(5, 5), cv::Vec3b(128, 128, 128));
  // Right: white outside the box, text pixels inside it.
  EXPECT_EQ(right_px(out, 5, 5), cv::Vec3b(255, 255, 255));
  EXPECT_EQ(right_px(out, 110, 70), cv::Vec3b(255, 255, 255));
  EXPECT_GT(dark_pixels(out, cv::Rect(22, 22, 76, 26)), 30);
}

TEST(DrawOcr, IsDeterministic) {
  const cv::Mat a = draw_ocr_box_txt(gray_image(), {kBox}, {"abc"});
  const cv::Mat b = draw_ocr_box_txt(gray_image(), {kBox}, {"abc"});
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0.0);
}

TEST(DrawOcr, FallsBackWhenFontIsMissing) {
  const cv::Mat out = draw_ocr_box_txt(gray_image(), {kBox}, {"Hi 12"}, "/nonexistent/font.ttf");
  ASSERT_EQ(out.size(), cv::Size(240, 80));
  EXPECT_GT(dark_pixels(out, cv::Rect(22, 22, 76, 26)), 30);
  EXPECT_EQ(right_px(out, 5, 5), cv::Vec3b(255, 255, 255));
}

TEST(DrawOcr, TallBoxesGetVerticalText) {
  const Quad tall = {{{40, 4}, {60, 4}, {60, 76}, {40, 76}}};
  const cv::Mat out = draw_ocr_box_txt(gray_image(), {tall}, {"AB"});
  EXPECT_GT(dark_pixels(out, cv::Rect(42, 6, 16, 32)), 10);   // A in the upper half
  EXPECT_GT(dark_pixels(out, cv::Rect(42, 42, 16, 32)), 10);  // B in the lower half
}

TEST(DrawOcr, TextCountMismatchDrawsOnlyOutlines) {
  const cv::Mat out = draw_ocr_box_txt(gray_image(), {kBox}, {"a", "b"});
  EXPECT_EQ(dark_pixels(out, cv::Rect(22, 22, 76, 26)), 0);
  EXPECT_NE(right_px(out, 60, 20), cv::Vec3b(255, 255, 255));  // the outline
}
