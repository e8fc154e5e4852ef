// MakeBorderMap / MakeShrinkMap on hand-made polygons. The expected values
// are worked out by hand for a 100 x 40 rectangle at (20, 20)-(120, 60) in
// a 140 x 80 image: area 4000, perimeter 280, so with shrink_ratio 0.4 the
// offset is D = 4000 * (1 - 0.16) / 280 = 12 pixels.
#include <gtest/gtest.h>

#include "ocrforge/train/tasks/det/det_maps.h"

using namespace ocrforge;

namespace {

const cv::Size kImage(140, 80);
DetPolygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }
float px(const cv::Mat& m, int x, int y) { return m.at<float>(y, x); }

}  // namespace

TEST(DetPolygon, AreaPerimeterAndShrinkOfARectangle) {
  const DetPolygon r = rect(20, 20, 120, 60);
  EXPECT_DOUBLE_EQ(det_polygon_area(r), 4000.0);
  EXPECT_DOUBLE_EQ(det_polygon_perimeter(r), 280.0);
  // Shrinking a rectangle by 12 gives the rectangle 12 pixels inside.
  const auto shrunk = det_offset_polygon(r, -12.0);
  ASSERT_EQ(shrunk.size(), 1u);
  ASSERT_EQ(shrunk[0].size(), 4u);
  float xmin = 1e9f, xmax = -1e9f, ymin = 1e9f, ymax = -1e9f;
  for (const auto& p : shrunk[0]) {
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x), ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  EXPECT_EQ(xmin, 32.f);
  EXPECT_EQ(xmax, 108.f);
  EXPECT_EQ(ymin, 32.f);
  EXPECT_EQ(ymax, 48.f);
}

TEST(DetMaps, ShrinkMapFillsTheRectangleTwelvePixelsInside) {
  cv::Mat map, mask;
  DetDataStats stats;
  make_shrink_map(kImage, {rect(20, 20, 120, 60)}, {false}, DetShrinkMapParams{}, &map, &mask, &stats);
  ASSERT_EQ(map.size(), kImage);
  // Filled box: x in [32, 108], y in [32, 48] (cv::fillPoly includes the edges).
  EXPECT_EQ(cv::countNonZero(map), 77 * 17);
  EXPECT_EQ(px(map, 32, 32), 1.f);
  EXPECT_EQ(px(map, 108, 48), 1.f);
  EXPECT_EQ(px(map, 70, 40), 1.f);
  EXPECT_EQ(px(map, 31, 40), 0.f);
  EXPECT_EQ(px(map, 109, 40), 0.f);
  EXPECT_EQ(px(map, 70, 31), 0.f);
  EXPECT_EQ(px(map, 70, 49), 0.f);
  EXPECT_EQ(cv::countNonZero(mask), kImage.area());  // nothing ignored
  EXPECT_EQ(stats.too_small, 0);
  EXPECT_EQ(stats.shrink_failed, 0);
}

TEST(DetMaps, ShrinkMapMasksIgnoredAndTooSmallPolygons) {
  cv::Mat map, mask;
  DetDataStats stats;
  // An ignored ("###") box and a 100 x 6 line thinner than min_text_size 8.
  make_shrink_map(kImage, {rect(10, 10, 40, 40), rect(20, 60, 120, 66)}, {true, false}, DetShrinkMapParams{}, &map,
                  &mask, &stats);
  EXPECT_EQ(cv::countNonZero(map), 0);
  EXPECT_EQ(stats.too_small, 1);  // the ignored one is not counted again
  EXPECT_EQ(px(mask, 25, 25), 0.f);
  EXPECT_EQ(px(mask, 70, 63), 0.f);
  EXPECT_EQ(px(mask, 70, 50), 1.f);
  EXPECT_EQ(px(mask, 130, 75), 1.f);
  // The masked areas are exactly the two filled polygons: 31*31 + 101*7.
  EXPECT_EQ(kImage.area() - cv::countNonZero(mask), 31 * 31 + 101 * 7);
}

TEST(DetMaps, ShrinkMapClampsPolygonsIntoTheImage) {
  cv::Mat map, mask;
  // Sticks out on the left: clamped to x = 0 first, then shrunk.
  make_shrink_map(kImage, {rect(-50, 20, 50, 60)}, {false}, DetShrinkMapParams{}, &map, &mask, nullptr);
  EXPECT_GT(cv::countNonZero(map), 0);
  EXPECT_EQ(px(map, 0, 40), 0.f);
  EXPECT_EQ(px(map, 25, 40), 1.f);
}

TEST(DetMaps, BorderDistanceIsPaddleOcrs) {
  const cv::Point2d a(20, 20), b(120, 20);
  EXPECT_NEAR(det_border_distance(70, 26, a, b), 6.0, 1e-9);   // sees the edge: perpendicular
  EXPECT_NEAR(det_border_distance(130, 20, a, b), 10.0, 1e-9);  // beyond the end: end-point distance
  EXPECT_NEAR(det_border_distance(14, 14, a, b), std::sqrt(72.0), 1e-9);
  EXPECT_EQ(det_border_distance(20, 20, a, b), 0.0);            // on an end point
  EXPECT_NEAR(det_border_distance(3, 4, {0, 0}, {0, 0}), 5.0, 1e-9);  // zero-length edge
}

TEST(DetMaps, BorderMapValuesAtKnownPoints) {
  cv::Mat tmap, tmask;
  make_border_map(kImage, {rect(20, 20, 120, 60)}, {false}, DetBorderMapParams{}, &tmap, &tmask);
  ASSERT_EQ(tmap.size(), kImage);
  // thresh = 0.3 + 0.4 * (1 - min(1, dist / 12)).
  EXPECT_NEAR(px(tmap, 70, 20), 0.7, 1e-6);                     // on the top edge
  EXPECT_NEAR(px(tmap, 70, 40), 0.3, 1e-6);                     // centre: 20 px from every edge
  EXPECT_NEAR(px(tmap, 70, 26), 0.5, 1e-6);                     // 6 px inside
  EXPECT_NEAR(px(tmap, 70, 14), 0.5, 1e-6);                     // 6 px outside
  EXPECT_NEAR(px(tmap, 70, 9), 0.3 + 0.4 / 12.0, 1e-6);         // 11 px outside
  EXPECT_NEAR(px(tmap, 130, 40), 0.3 + 0.4 * 2.0 / 12.0, 1e-6);  // 10 px right of the right edge
  EXPECT_NEAR(px(tmap, 14, 14), 0.3 + 0.4 * (1.0 - std::sqrt(72.0) / 12.0), 1e-6);  // off the corner
  EXPECT_NEAR(px(tmap, 2, 2), 0.3, 1e-6);                       // outside the grown box
  // The mask is the polygon grown by 12 with round corners: y 8..72, x 8..132.
  EXPECT_EQ(px(tmask, 70, 8), 1.f);
  EXPECT_EQ(px(tmask, 70, 7), 0.f);
  EXPECT_EQ(px(tmask, 8, 40), 1.f);
  EXPECT_EQ(px(tmask, 7, 40), 0.f);
  EXPECT_EQ(px(tmask, 132, 72), 0.f);  // the corner is rounded: 17 px from (120, 60)
  EXPECT_EQ(px(tmask, 13, 13), 1.f);   // 9.9 px from the corner (20, 20)
  EXPECT_EQ(px(tmask, 9, 9), 0.f);     // 15.6 px from it
  double lo = 1, hi = 0;
  cv::minMaxLoc(tmap, &lo, &hi);
  EXPECT_NEAR(lo, 0.3, 1e-6);
  EXPECT_NEAR(hi, 0.7, 1e-6);
}

TEST(DetMaps, BorderMapSkipsIgnoredPolygons) {
  cv::Mat tmap, tmask;
  make_border_map(kImage, {rect(20, 20, 120, 60)}, {true}, DetBorderMapParams{}, &tmap, &tmask);
  EXPECT_EQ(cv::countNonZero(tmask), 0);
  double lo = 0, hi = 0;
  cv::minMaxLoc(tmap, &lo, &hi);
  EXPECT_NEAR(lo, 0.3, 1e-6);
  EXPECT_NEAR(hi, 0.3, 1e-6);
}

TEST(DetMaps, AnyPointCountWorks) {
  // An L-shaped hexagon: shrunk inside itself, border around it.
  const DetPolygon l = {{10, 10}, {90, 10}, {90, 30}, {40, 30}, {40, 70}, {10, 70}};
  cv::Mat map, mask, tmap, tmask;
  make_shrink_map(kImage, {l}, {false}, DetShrinkMapParams{}, &map, &mask, nullptr);
  make_border_map(kImage, {l}, {false}, DetBorderMapParams{}, &tmap, &tmask);
  EXPECT_GT(cv::countNonZero(map), 0);
  EXPECT_EQ(px(map, 60, 60), 0.f);  // outside the L
  EXPECT_EQ(px(map, 25, 40), 1.f);  // deep inside the vertical bar
  EXPECT_EQ(px(tmask, 60, 60), 0.f);
  EXPECT_EQ(px(tmask, 40, 50), 1.f);  // on an edge
  EXPECT_NEAR(px(tmap, 40, 50), 0.7, 1e-6);
}
