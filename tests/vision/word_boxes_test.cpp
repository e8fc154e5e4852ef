// Words and word boxes from CTC character positions.
#include "ocrforge/vision/word_boxes.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "ocrforge/vision/crop.h"

using ocrforge::CtcSymbol;
using ocrforge::Quad;
using ocrforge::RecText;
using ocrforge::split_words;

namespace {

// A RecText whose characters sit at the given (first, last) steps.
RecText rec(const std::vector<std::string>& chars, const std::vector<std::pair<int, int>>& steps, int total,
            float ratio = 1.f) {
  RecText r;
  r.steps = total;
  r.content_ratio = ratio;
  for (size_t i = 0; i < chars.size(); ++i) {
    r.symbols.push_back({steps[i].first, steps[i].second, 0.5f + 0.1f * static_cast<float>(i),
                         static_cast<int>(r.text.size()), static_cast<int>(chars[i].size())});
    r.text += chars[i];
  }
  return r;
}

}  // namespace

TEST(WordBoxes, SplitsAtSpacesWithStepSpans) {
  // 40 steps: "ab" at steps 2-5, space at 10, "cd" at 20-23.
  const RecText r = rec({"a", "b", " ", "c", "d"}, {{2, 3}, {5, 5}, {10, 10}, {20, 21}, {23, 23}}, 40);
  const auto words = split_words(r);
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].text, "ab");
  EXPECT_EQ(words[1].text, "cd");
  // Steps 2..5 -> [2, 6) / 40, widened by half a step.
  EXPECT_NEAR(words[0].x0, 1.5f / 40, 1e-6);
  EXPECT_NEAR(words[0].x1, 6.5f / 40, 1e-6);
  EXPECT_NEAR(words[1].x0, 19.5f / 40, 1e-6);
  EXPECT_NEAR(words[1].x1, 24.5f / 40, 1e-6);
  EXPECT_NEAR(words[0].score, (0.5f + 0.6f) / 2, 1e-6);
  EXPECT_NEAR(words[1].score, (0.8f + 0.9f) / 2, 1e-6);
}

TEST(WordBoxes, PaddedInputScalesToTheCrop) {
  // The crop filled half of the input: step 10 of 40 is at 0.5 of the crop.
  const RecText r = rec({"x"}, {{10, 10}}, 40, 0.5f);
  const auto words = split_words(r);
  ASSERT_EQ(words.size(), 1u);
  EXPECT_NEAR(words[0].x0, 9.5f / 20, 1e-6);
  EXPECT_NEAR(words[0].x1, 11.5f / 20, 1e-6);
}

TEST(WordBoxes, IdeographsAreWordsOfTheirOwn) {
  const RecText r = rec({"中", "文", "ab", "1"}, {{0, 0}, {4, 4}, {8, 8}, {10, 10}}, 20);
  const auto words = split_words(r);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0].text, "中");
  EXPECT_EQ(words[1].text, "文");
  EXPECT_EQ(words[2].text, "ab1");
  // Neighbours never overlap after widening.
  EXPECT_LE(words[0].x1, words[1].x0);
  EXPECT_LE(words[1].x1, words[2].x0);
}

TEST(WordBoxes, NoSymbolsNoWords) {
  EXPECT_TRUE(split_words(RecText{}).empty());
  const RecText spaces = rec({" ", " "}, {{1, 1}, {3, 3}}, 10);
  EXPECT_TRUE(split_words(spaces).empty());
}

TEST(WordBoxes, AxisAlignedSpanMapsLinearly) {
  const Quad box = {cv::Point2f(100, 50), cv::Point2f(300, 50), cv::Point2f(300, 90), cv::Point2f(100, 90)};
  const Quad q = ocrforge::crop_span_to_image(box, 0.25f, 0.5f, false);
  EXPECT_NEAR(q[0].x, 150, 0.5);
  EXPECT_NEAR(q[0].y, 50, 0.5);
  EXPECT_NEAR(q[1].x, 200, 0.5);
  EXPECT_NEAR(q[2].y, 90, 0.5);
  // Flipped by the classifier: the crop's left quarter is the box's right quarter.
  const Quad f = ocrforge::crop_span_to_image(box, 0.f, 0.25f, true);
  EXPECT_NEAR(f[0].x, 300, 0.5);
  EXPECT_NEAR(f[0].y, 90, 0.5);
  EXPECT_NEAR(f[1].x, 250, 0.5);
}

// A dot drawn in the image is found in the crop that rotate_crop cuts; the
// span at the dot's crop position must come back through the dot.
static void expect_dot_round_trip(const Quad& box, cv::Point dot, bool flipped) {
  cv::Mat img(400, 400, CV_8UC3, cv::Scalar(0, 0, 0));
  cv::circle(img, dot, 2, cv::Scalar(255, 255, 255), cv::FILLED);
  cv::Mat crop = ocrforge::rotate_crop(img, box);
  if (flipped) crop = ocrforge::rotate_180(crop);
  cv::Mat grey;
  cv::cvtColor(crop, grey, cv::COLOR_BGR2GRAY);
  const cv::Moments m = cv::moments(grey, false);
  ASSERT_GT(m.m00, 0);
  const float u = static_cast<float>(m.m10 / m.m00 + 0.5) / crop.cols;
  const float v = static_cast<float>(m.m01 / m.m00 + 0.5) / crop.rows;
  const Quad q = ocrforge::crop_span_to_image(box, u, u, flipped);
  // The dot lies on the segment from the span's top (q[0]) to its bottom (q[3]).
  const cv::Point2f p = q[0] + (q[3] - q[0]) * v;
  EXPECT_NEAR(p.x, dot.x, 2.0) << "u " << u << " v " << v;
  EXPECT_NEAR(p.y, dot.y, 2.0);
}

TEST(WordBoxes, SkewedLineRoundTrip) {
  const Quad box = {cv::Point2f(50, 100), cv::Point2f(350, 130), cv::Point2f(346, 170), cv::Point2f(46, 140)};
  expect_dot_round_trip(box, {200, 130}, false);
  expect_dot_round_trip(box, {100, 115}, true);
}

TEST(WordBoxes, VerticalLineRoundTrip) {
  // Taller than 1.5 x wide: rotate_crop turns the crop by 90 degrees.
  const Quad box = {cv::Point2f(100, 50), cv::Point2f(140, 50), cv::Point2f(140, 350), cv::Point2f(100, 350)};
  expect_dot_round_trip(box, {120, 100}, false);
  expect_dot_round_trip(box, {110, 300}, true);
}
