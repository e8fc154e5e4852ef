// Polygon expansion by area * ratio / perimeter with Clipper's round joins.
#include "ocrforge/vision/unclip.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using ocrforge::unclip;
using ocrforge::unclip_paths;

namespace {
std::vector<cv::Point2f> rect(float x0, float y0, float x1, float y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}
// Exact float extent (cv::boundingRect adds a pixel to the width).
cv::Rect2f extent(const std::vector<cv::Point2f>& pts) {
  float x0 = pts[0].x, x1 = x0, y0 = pts[0].y, y1 = y0;
  for (const auto& p : pts) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}
}  // namespace

TEST(Unclip, RectangleGrowsByAreaTimesRatioOverPerimeter) {
  // 100x20: distance = 2000 * 1.5 / 240 = 12.5 on each side.
  const auto out = unclip(rect(10, 10, 110, 30), 1.5f);
  ASSERT_GE(out.size(), 8u);  // round corners add vertices
  const cv::Rect2f bb = extent(out);
  EXPECT_NEAR(bb.x, 10 - 12.5, 1.0);
  EXPECT_NEAR(bb.y, 10 - 12.5, 1.0);
  EXPECT_NEAR(bb.x + bb.width, 110 + 12.5, 1.0);
  EXPECT_NEAR(bb.y + bb.height, 30 + 12.5, 1.0);
  const cv::RotatedRect r = cv::minAreaRect(out);
  EXPECT_NEAR(std::max(r.size.width, r.size.height), 125.0, 1.0);
  EXPECT_NEAR(std::min(r.size.width, r.size.height), 45.0, 1.0);
}

TEST(Unclip, OutputPointsAreIntegers) {
  const auto points = unclip(rect(0, 0, 50, 10), 2.f);
  ASSERT_GE(points.size(), 4u) << "an empty polygon would pass the loop below";
  for (const auto& p : points) {
    EXPECT_EQ(p.x, std::round(p.x));
    EXPECT_EQ(p.y, std::round(p.y));
  }
}

TEST(Unclip, InputIsTruncatedToIntegersLikePyclipper) {
  // (0.9, 0.9)-(100.9, 20.9) enters Clipper as (0, 0)-(100, 20); the offset
  // (12.5) is computed from the float polygon.
  const auto out = unclip(rect(0.9f, 0.9f, 100.9f, 20.9f), 1.5f);
  const cv::Rect2f bb = extent(out);
  EXPECT_GE(bb.x, -13.f);
  EXPECT_LE(bb.x, -12.f);
  EXPECT_GE(bb.x + bb.width, 112.f);
  EXPECT_LE(bb.x + bb.width, 113.5f);
}

TEST(Unclip, ConvexInputGivesOnePath) { EXPECT_EQ(unclip_paths(rect(0, 0, 30, 30), 1.5f).size(), 1u); }

TEST(Unclip, DegenerateInputGivesNothing) {
  EXPECT_TRUE(unclip({}, 1.5f).empty());
  EXPECT_TRUE(unclip({{0, 0}, {10, 0}}, 1.5f).empty());
  EXPECT_TRUE(unclip({{0, 0}, {10, 0}, {20, 0}}, 1.5f).empty());  // collinear: zero area
  EXPECT_TRUE(unclip_paths({{5, 5}, {5, 5}, {5, 5}, {5, 5}}, 1.5f).empty());
}
