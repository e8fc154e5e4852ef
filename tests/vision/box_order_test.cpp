// Corner ordering, filtering/clipping and reading-order sort of boxes.
#include "ocrforge/vision/box_order.h"

#include <gtest/gtest.h>

using ocrforge::filter_det_boxes;
using ocrforge::order_points_clockwise;
using ocrforge::Quad;
using ocrforge::sort_boxes;
using ocrforge::TextBox;

namespace {

TextBox quad_box(Quad q) {
  TextBox b;
  b.quad = q;
  b.polygon.assign(q.begin(), q.end());
  return b;
}
// An axis-aligned 20x10 box with top-left (x, y).
TextBox at(float x, float y) { return quad_box({{{x, y}, {x + 20, y}, {x + 20, y + 10}, {x, y + 10}}}); }

}  // namespace

TEST(BoxOrder, OrdersShuffledPointsClockwise) {
  const Quad shuffled = {{{48, 30}, {10, 10}, {8, 28}, {50, 12}}};
  const Quad q = order_points_clockwise(shuffled);
  EXPECT_EQ(q[0], cv::Point2f(10, 10));
  EXPECT_EQ(q[1], cv::Point2f(50, 12));
  EXPECT_EQ(q[2], cv::Point2f(48, 30));
  EXPECT_EQ(q[3], cv::Point2f(8, 28));
}

TEST(BoxOrder, OrdersRotatedBox) {
  // A box tilted by about 45 degrees: top-left is the smallest x + y,
  // top-right the smallest y - x of the two others.
  const Quad q = order_points_clockwise({{{0, 32}, {32, 62}, {62, 30}, {30, 0}}});
  EXPECT_EQ(q[0], cv::Point2f(30, 0));
  EXPECT_EQ(q[1], cv::Point2f(62, 30));
  EXPECT_EQ(q[2], cv::Point2f(32, 62));
  EXPECT_EQ(q[3], cv::Point2f(0, 32));
}

TEST(BoxOrder, FilterDropsThinBoxes) {
  std::vector<TextBox> boxes = {
      quad_box({{{0, 0}, {3, 0}, {3, 10}, {0, 10}}}),      // width 3: dropped
      quad_box({{{0, 20}, {10, 20}, {10, 23}, {0, 23}}}),  // height 3: dropped
      quad_box({{{0, 40}, {4, 40}, {4, 44}, {0, 44}}}),    // 4 x 4: kept
  };
  const auto kept = filter_det_boxes(boxes, cv::Size(100, 100));
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].quad[0], cv::Point2f(0, 40));
}

TEST(BoxOrder, FilterClipsToImageAndTruncates) {
  std::vector<TextBox> boxes = {quad_box({{{120, 40}, {-5, -5}, {120, -5}, {-5, 40}}}),
                                quad_box({{{10.7f, 20.9f}, {50.2f, 20.9f}, {50.2f, 30.5f}, {10.7f, 30.5f}}})};
  const auto kept = filter_det_boxes(boxes, cv::Size(100, 50));
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].quad[0], cv::Point2f(0, 0));
  EXPECT_EQ(kept[0].quad[1], cv::Point2f(99, 0));
  EXPECT_EQ(kept[0].quad[2], cv::Point2f(99, 40));
  EXPECT_EQ(kept[0].quad[3], cv::Point2f(0, 40));
  EXPECT_EQ(kept[0].polygon[1], cv::Point2f(99, 0));  // polygon follows the quad
  EXPECT_EQ(kept[1].quad[0], cv::Point2f(10, 20));
  EXPECT_EQ(kept[1].quad[2], cv::Point2f(50, 30));
}

TEST(BoxOrder, FilterOnlyClipsPolygons) {
  TextBox poly;
  poly.quad = {{{0, 0}, {2, 0}, {2, 2}, {0, 2}}};  // tiny, but poly mode never drops
  poly.polygon = {{-3, 1}, {1, -2}, {150, 1}, {1, 70}, {0, 2}};
  const auto kept = filter_det_boxes({poly}, cv::Size(100, 50));
  ASSERT_EQ(kept.size(), 1u);
  ASSERT_EQ(kept[0].polygon.size(), 5u);
  EXPECT_EQ(kept[0].polygon[0], cv::Point2f(0, 1));
  EXPECT_EQ(kept[0].polygon[2], cv::Point2f(99, 1));
  EXPECT_EQ(kept[0].polygon[3], cv::Point2f(1, 49));
}

TEST(BoxOrder, SortsTopToBottomThenLeftToRight) {
  std::vector<TextBox> boxes = {at(5, 80), at(50, 40), at(10, 40)};
  sort_boxes(boxes);
  EXPECT_EQ(boxes[0].quad[0], cv::Point2f(10, 40));
  EXPECT_EQ(boxes[1].quad[0], cv::Point2f(50, 40));
  EXPECT_EQ(boxes[2].quad[0], cv::Point2f(5, 80));
}

TEST(BoxOrder, SwapsBoxesOnTheSameLine) {
  // B is 5 px lower than A but further left: same line, so B reads first.
  std::vector<TextBox> boxes = {at(100, 10), at(10, 15), at(5, 40)};
  sort_boxes(boxes);
  EXPECT_EQ(boxes[0].quad[0], cv::Point2f(10, 15));
  EXPECT_EQ(boxes[1].quad[0], cv::Point2f(100, 10));
  EXPECT_EQ(boxes[2].quad[0], cv::Point2f(5, 40));
}

TEST(BoxOrder, TenPixelsApartIsAnotherLine) {
  std::vector<TextBox> boxes = {at(10, 20), at(100, 10)};
  sort_boxes(boxes);
  EXPECT_EQ(boxes[0].quad[0], cv::Point2f(100, 10));  // |dy| = 10: no swap
  EXPECT_EQ(boxes[1].quad[0], cv::Point2f(10, 20));
}

TEST(BoxOrder, SwapBubblesAcrossSeveralBoxes) {
  // Three boxes within a few pixels vertically, sorted by y into x order 30, 20, 10.
  std::vector<TextBox> boxes = {at(10, 14), at(30, 10), at(20, 12)};
  sort_boxes(boxes);
  EXPECT_EQ(boxes[0].quad[0].x, 10);
  EXPECT_EQ(boxes[1].quad[0].x, 20);
  EXPECT_EQ(boxes[2].quad[0].x, 30);
}
