// DB post-processing on hand-made probability maps.
#include "ocrforge/vision/db_postprocess.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using ocrforge::db_postprocess;
using ocrforge::DbPostParams;
using ocrforge::DbScoreMode;
using ocrforge::DetBoxType;
using ocrforge::TextBox;

namespace {

// A 100 x 200 map (rows x cols) with filled rectangles of probability `v`.
cv::Mat blank_map() { return cv::Mat::zeros(100, 200, CV_32F); }
void blob(cv::Mat& m, int x, int y, int w, int h, float v = 0.9f) { m(cv::Rect(x, y, w, h)).setTo(v); }

float min_x(const TextBox& b) { return std::min({b.quad[0].x, b.quad[1].x, b.quad[2].x, b.quad[3].x}); }

}  // namespace

TEST(DbPostprocess, FindsOneBoxOnRectangleBlob) {
  cv::Mat m = blank_map();
  blob(m, 40, 30, 80, 20);  // pixels x 40..119, y 30..49
  // Source image is twice the map size in both directions.
  const auto boxes = db_postprocess(m, cv::Size(400, 200), DbPostParams{});
  ASSERT_EQ(boxes.size(), 1u);
  const TextBox& b = boxes[0];
  EXPECT_NEAR(b.score, 0.9f, 1e-5);
  // Contour box 79 x 19, area 1501, perimeter 196: unclip distance
  // 1501 * 1.5 / 196 = 11.49, so the map box is about (28.5, 18.5)-(130.5, 60.5).
  EXPECT_NEAR(b.quad[0].x, 57, 2);  // top-left first, clockwise, scaled x2
  EXPECT_NEAR(b.quad[0].y, 37, 2);
  EXPECT_NEAR(b.quad[1].x, 261, 2);
  EXPECT_NEAR(b.quad[1].y, 37, 2);
  EXPECT_NEAR(b.quad[2].x, 261, 2);
  EXPECT_NEAR(b.quad[2].y, 121, 2);
  EXPECT_NEAR(b.quad[3].x, 57, 2);
  EXPECT_NEAR(b.quad[3].y, 121, 2);
  ASSERT_EQ(b.polygon.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.polygon[i], b.quad[i]);
  for (const auto& p : b.quad) EXPECT_EQ(p.x, std::round(p.x));  // np.round'ed
}

TEST(DbPostprocess, ClipsBoxesToTheSourceImage) {
  cv::Mat m = blank_map();
  blob(m, 0, 0, 60, 20);  // touches the corner: unclip pushes it outside
  const auto boxes = db_postprocess(m, cv::Size(200, 100), DbPostParams{});
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].quad[0], cv::Point2f(0, 0));
  for (const auto& p : boxes[0].quad) EXPECT_GE(std::min(p.x, p.y), 0.f);
}

TEST(DbPostprocess, DropsBlobBelowBoxThresh) {
  cv::Mat m = blank_map();
  blob(m, 40, 30, 80, 20, 0.5f);  // above thresh 0.3, below box_thresh 0.6
  EXPECT_TRUE(db_postprocess(m, m.size(), DbPostParams{}).empty());
  DbPostParams p;
  p.box_thresh = 0.4f;
  EXPECT_EQ(db_postprocess(m, m.size(), p).size(), 1u);
}

TEST(DbPostprocess, DropsTinyBlobs) {
  cv::Mat m = blank_map();
  blob(m, 10, 10, 2, 2);   // short side 1 < 3
  blob(m, 50, 10, 2, 40);  // a 2 px wide stroke
  EXPECT_TRUE(db_postprocess(m, m.size(), DbPostParams{}).empty());
}

TEST(DbPostprocess, MinSizeAppliesBeforeUnclip) {
  // A large unclip ratio would grow a 3 px stroke (contour short side 2) past
  // the post-unclip limit of 5; the first check (short side < 3) drops it.
  cv::Mat m = blank_map();
  blob(m, 10, 10, 100, 3);
  blob(m, 10, 50, 100, 4);  // short side 3: kept
  DbPostParams p;
  p.unclip_ratio = 3.f;
  const auto boxes = db_postprocess(m, m.size(), p);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_GT(boxes[0].quad[0].y, 40.f);
}

TEST(DbPostprocess, TwoBlobsGiveTwoBoxes) {
  cv::Mat m = blank_map();
  blob(m, 10, 10, 50, 15);
  blob(m, 120, 60, 60, 20);
  auto boxes = db_postprocess(m, m.size(), DbPostParams{});
  ASSERT_EQ(boxes.size(), 2u);
  std::sort(boxes.begin(), boxes.end(),
            [](const TextBox& a, const TextBox& b) { return min_x(a) < min_x(b); });
  EXPECT_NEAR(min_x(boxes[0]), 10 - 9, 2);  // 49x14 contour box: distance 9.4
  EXPECT_NEAR(min_x(boxes[1]), 120 - 11, 2);  // 59x19: distance 10.8

  DbPostParams one;
  one.max_candidates = 1;
  EXPECT_EQ(db_postprocess(m, m.size(), one).size(), 1u);
}

TEST(DbPostprocess, SlowScoreFollowsTheContour) {
  // An L shape fills less than half of its bounding box: the box ("fast")
  // mean is low, the contour ("slow") mean is the blob value.
  cv::Mat m = blank_map();
  blob(m, 20, 20, 12, 40);
  blob(m, 20, 48, 60, 12);
  DbPostParams p;
  EXPECT_TRUE(db_postprocess(m, m.size(), p).empty());
  p.score_mode = DbScoreMode::Slow;
  const auto boxes = db_postprocess(m, m.size(), p);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_NEAR(boxes[0].score, 0.9f, 1e-5);
  const std::vector<cv::Point2f> quad(boxes[0].quad.begin(), boxes[0].quad.end());
  EXPECT_LT(ocrforge::polygon_score(m, quad), 0.5f);
}

TEST(DbPostprocess, DilationJoinsBlobsOnePixelApart) {
  cv::Mat m = blank_map();
  blob(m, 20, 30, 30, 20);  // x 20..49
  blob(m, 51, 30, 30, 20);  // x 51..80, column 50 empty
  DbPostParams p;
  EXPECT_EQ(db_postprocess(m, m.size(), p).size(), 2u);
  p.use_dilation = true;
  EXPECT_EQ(db_postprocess(m, m.size(), p).size(), 1u);
}

TEST(DbPostprocess, PolyModeReturnsPolygon) {
  cv::Mat m = blank_map();
  blob(m, 20, 20, 12, 40);
  blob(m, 20, 48, 60, 12);
  DbPostParams p;
  p.box_type = DetBoxType::Poly;
  p.box_thresh = 0.5f;
  const auto boxes = db_postprocess(m, cv::Size(400, 200), p);
  ASSERT_EQ(boxes.size(), 1u);
  const TextBox& b = boxes[0];
  EXPECT_GE(b.polygon.size(), 6u);  // an L keeps its concave corner
  EXPECT_NEAR(b.score, 0.9f, 1e-5);
  for (const auto& pt : b.polygon) {
    EXPECT_EQ(pt.x, std::round(pt.x));
    EXPECT_GT(pt.x, 2 * 20 - 30);  // unclip distance is about 7.5 map px
    EXPECT_LT(pt.x, 2 * 80 + 30);
    EXPECT_LT(pt.y, 2 * 60 + 30);
  }
  // The quad is the polygon's min-area box: it encloses the L's corner region.
  EXPECT_NEAR(min_x(b), 2 * 20 - 15, 6);
}

TEST(DbPostprocess, MiniBoxOrdersCornersFromTopLeft) {
  float sside = 0;
  const auto q = ocrforge::mini_box({{10, 10}, {40, 10}, {40, 20}, {10, 20}, {25, 15}}, &sside);
  EXPECT_EQ(q[0], cv::Point2f(10, 10));
  EXPECT_EQ(q[1], cv::Point2f(40, 10));
  EXPECT_EQ(q[2], cv::Point2f(40, 20));
  EXPECT_EQ(q[3], cv::Point2f(10, 20));
  EXPECT_FLOAT_EQ(sside, 10.f);
}

TEST(DbPostprocess, RejectsWrongMapType) {
  cv::Mat m = cv::Mat::zeros(10, 10, CV_8U);
  EXPECT_THROW(db_postprocess(m, m.size(), DbPostParams{}), ocrforge::Error);
}
