// Tests for the placement of detection lines (ocrforge/synth/det_layout.h).
#include "ocrforge/synth/det_layout.h"

#include <gtest/gtest.h>

#include "ocrforge/synth/augment.h"
#include "ocrforge/vision/det_metric.h"

using namespace ocrforge;

namespace {
// Places up to 30 lines and checks each lies inside and overlaps none before it.
void check_layout(bool scene, uint64_t index) {
  const cv::Size size(500, 400);
  SampleRng rng(1, index);
  DetLayout layout(size, scene, rng);
  std::vector<std::vector<cv::Point2f>> placed;
  for (int i = 0; i < 30; ++i) {
    const cv::Rect2d ink(10, 10, rng.uniform(30, 250), rng.uniform(10, 40));
    const double angle = scene ? rng.uniform(-30, 30) : rng.uniform(-3, 3);
    cv::Matx33d m;
    if (!layout.place(ink, ink.height * 1.2, angle, rng, &m)) continue;
    const auto quad = transform_points(m, rect_corners(ink));
    for (const auto& p : quad) {
      EXPECT_GE(p.x, 0);
      EXPECT_GE(p.y, 0);
      EXPECT_LE(p.x, size.width - 1);
      EXPECT_LE(p.y, size.height - 1);
    }
    for (const auto& other : placed) EXPECT_NEAR(polygon_intersection_area(quad, other), 0.0, 1e-6);
    placed.push_back(quad);
  }
  EXPECT_GE(placed.size(), 3u);
}
}  // namespace

TEST(SynthDetLayout, SceneLinesInsideAndApart) {
  for (uint64_t i = 0; i < 5; ++i) check_layout(true, i);
}

TEST(SynthDetLayout, DocumentLinesInsideAndApart) {
  for (uint64_t i = 0; i < 5; ++i) check_layout(false, i);
}

TEST(SynthDetLayout, DocumentLinesGoDownThePage) {
  SampleRng rng(2, 0);
  DetLayout layout(cv::Size(600, 800), false, rng);
  double last_y = -1;
  for (int i = 0; i < 5; ++i) {
    cv::Matx33d m;
    const cv::Rect2d ink(0, 0, 200, 20);
    ASSERT_TRUE(layout.place(ink, 24, 0, rng, &m));
    const double y = transform_points(m, {{0, 0}})[0].y;
    EXPECT_GT(y, last_y);
    last_y = y;
  }
}

TEST(SynthDetLayout, TooLargeLinesDoNotFit) {
  SampleRng rng(3, 0);
  DetLayout layout(cv::Size(200, 100), true, rng);
  cv::Matx33d m;
  EXPECT_FALSE(layout.place(cv::Rect2d(0, 0, 400, 20), 24, 0, rng, &m));
}
