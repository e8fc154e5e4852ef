// Tests for the detection metric in ocrforge/vision/det_metric.h
// (PaddleOCR's DetectionIoUEvaluator rules).
#include "ocrforge/vision/det_metric.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ocrforge;
using Poly = std::vector<cv::Point2f>;

namespace {
Poly rect(float x, float y, float w, float h) { return {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}; }
DetGtPolygon gt(const Poly& p, bool ignore = false) { return DetGtPolygon{p, ignore}; }
}  // namespace

TEST(DetMetricGeometry, AreaAndIntersection) {
  EXPECT_DOUBLE_EQ(polygon_area(rect(0, 0, 10, 5)), 50.0);
  EXPECT_NEAR(polygon_intersection_area(rect(0, 0, 10, 10), rect(5, 5, 10, 10)), 25.0, 1e-6);
  EXPECT_NEAR(polygon_intersection_area(rect(0, 0, 10, 10), rect(20, 0, 5, 5)), 0.0, 1e-9);
  // Orientation does not matter.
  Poly ccw = rect(5, 5, 10, 10);
  std::reverse(ccw.begin(), ccw.end());
  EXPECT_NEAR(polygon_intersection_area(rect(0, 0, 10, 10), ccw), 25.0, 1e-6);
  // Rotated square (diamond) inside a square: the diamond's own area.
  Poly diamond{{5, 0}, {10, 5}, {5, 10}, {0, 5}};
  EXPECT_NEAR(polygon_intersection_area(rect(0, 0, 10, 10), diamond), 50.0, 1e-3);
}

TEST(DetMetricGeometry, Validity) {
  EXPECT_TRUE(polygon_is_valid(rect(0, 0, 3, 2)));
  EXPECT_TRUE(polygon_is_valid({{0, 0}, {4, 0}, {2, 3}}));
  EXPECT_FALSE(polygon_is_valid({{0, 0}, {4, 0}}));                  // too few points
  EXPECT_FALSE(polygon_is_valid({{0, 0}, {4, 0}, {8, 0}, {2, 0}}));  // zero area
  EXPECT_FALSE(polygon_is_valid({{0, 0}, {4, 4}, {4, 0}, {0, 4}}));  // bow tie
  // A repeated corner is harmless (it is a triangle).
  EXPECT_TRUE(polygon_is_valid({{0, 0}, {4, 0}, {4, 0}, {2, 3}}));
}

TEST(DetMetric, PerfectDetectionGivesOne) {
  DetMetric m;
  m.add({gt(rect(0, 0, 100, 20)), gt(rect(0, 40, 80, 20))}, {rect(1, 1, 98, 19), rect(0, 41, 80, 20)});
  EXPECT_DOUBLE_EQ(m.precision(), 1.0);
  EXPECT_DOUBLE_EQ(m.recall(), 1.0);
  EXPECT_DOUBLE_EQ(m.hmean(), 1.0);
}

TEST(DetMetric, IouMustExceedHalf) {
  // Detection covers exactly half of the box and nothing else: IoU = 0.5, no match.
  DetImageCounts c = evaluate_det_image({gt(rect(0, 0, 100, 20))}, {rect(0, 0, 50, 20)});
  EXPECT_EQ(c.matched, 0);
  EXPECT_EQ(c.gt_care, 1);
  EXPECT_EQ(c.det_care, 1);
  c = evaluate_det_image({gt(rect(0, 0, 100, 20))}, {rect(0, 0, 60, 20)});
  EXPECT_EQ(c.matched, 1);
}

TEST(DetMetric, OneToOneMatching) {
  // Two detections on one ground truth: one matches, the other is a false positive.
  DetImageCounts c = evaluate_det_image({gt(rect(0, 0, 100, 20))}, {rect(0, 0, 100, 20), rect(2, 0, 98, 20)});
  EXPECT_EQ(c.matched, 1);
  EXPECT_EQ(c.det_care, 2);
}

TEST(DetMetric, IgnoredRegionsDropDetectionsInsideThem) {
  std::vector<DetGtPolygon> g{gt(rect(0, 0, 100, 20)), gt(rect(0, 50, 30, 6), true)};
  // Inside the ignored region: dropped; mostly outside: counted (and wrong).
  DetImageCounts c = evaluate_det_image(g, {rect(0, 0, 100, 20), rect(1, 50, 28, 6)});
  EXPECT_EQ(c.gt_care, 1);
  EXPECT_EQ(c.det_care, 1);
  EXPECT_EQ(c.matched, 1);
  c = evaluate_det_image(g, {rect(0, 0, 100, 20), rect(20, 50, 40, 6)});
  EXPECT_EQ(c.det_care, 2);
}

TEST(DetMetric, InvalidPolygonsAreSkipped) {
  DetImageCounts c = evaluate_det_image({gt({{0, 0}, {4, 4}, {4, 0}, {0, 4}}), gt(rect(0, 0, 10, 10))},
                                        {{{0, 0}, {1, 0}}, rect(0, 0, 10, 10)});
  EXPECT_EQ(c.gt_care, 1);
  EXPECT_EQ(c.det_care, 1);
  EXPECT_EQ(c.matched, 1);
}

TEST(DetMetric, SumsOverTheDataSet) {
  DetMetric m;
  m.add({gt(rect(0, 0, 10, 10)), gt(rect(0, 20, 10, 10)), gt(rect(0, 40, 10, 10))}, {rect(0, 0, 10, 10)});
  m.add({gt(rect(0, 0, 10, 10))}, {rect(0, 0, 10, 10), rect(50, 50, 10, 10)});
  EXPECT_EQ(m.totals().matched, 2);
  EXPECT_DOUBLE_EQ(m.recall(), 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(m.precision(), 2.0 / 3.0);
  EXPECT_NEAR(m.hmean(), 2 * 0.5 * (2.0 / 3) / (0.5 + 2.0 / 3), 1e-12);
  DetMetric empty;
  EXPECT_DOUBLE_EQ(empty.hmean(), 0.0);
}
