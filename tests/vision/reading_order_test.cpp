// Reading order on synthetic page layouts (boxes only).
#include "ocrforge/vision/reading_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using ocrforge::LayoutBlock;
using ocrforge::Quad;
using ocrforge::reading_order;
using ocrforge::reading_sequence;

namespace {

Quad rect(float x, float y, float w, float h) {
  return {cv::Point2f(x, y), cv::Point2f(x + w, y), cv::Point2f(x + w, y + h), cv::Point2f(x, y + h)};
}

}  // namespace

TEST(ReadingOrder, TwoColumnsUnderATitleReadColumnByColumn) {
  std::vector<Quad> boxes;
  // Given right column first, interleaved, to show the order is computed.
  for (int i = 0; i < 6; ++i) {
    boxes.push_back(rect(560, 200 + 40.f * i, 400, 30));  // right column, line i
    boxes.push_back(rect(100, 200 + 40.f * i, 400, 30));  // left column, line i
  }
  boxes.push_back(rect(200, 80, 600, 40));  // title, full width
  const auto blocks = reading_order(boxes);
  const auto seq = reading_sequence(blocks);
  std::vector<size_t> want = {12};
  for (int i = 0; i < 6; ++i) want.push_back(static_cast<size_t>(2 * i + 1));
  for (int i = 0; i < 6; ++i) want.push_back(static_cast<size_t>(2 * i));
  EXPECT_EQ(seq, want);
  ASSERT_EQ(blocks.size(), 3u);  // title, left column, right column
  EXPECT_EQ(blocks[1].paragraphs.size(), 1u);
  EXPECT_EQ(blocks[1].paragraphs[0].rows.size(), 6u);
}

TEST(ReadingOrder, ReceiptItemsAndPricesReadRowByRow) {
  std::vector<Quad> boxes;
  for (int i = 0; i < 8; ++i) {
    boxes.push_back(rect(500, 100 + 35.f * i + (i % 2 ? 3.f : -2.f), 80, 28));  // price, a bit off the row
    boxes.push_back(rect(60, 100 + 35.f * i, 150 + 20.f * (i % 3), 28));       // item name
  }
  const auto blocks = reading_order(boxes);
  const auto seq = reading_sequence(blocks);
  std::vector<size_t> want;
  for (int i = 0; i < 8; ++i) {
    want.push_back(static_cast<size_t>(2 * i + 1));
    want.push_back(static_cast<size_t>(2 * i));
  }
  EXPECT_EQ(seq, want);
  ASSERT_EQ(blocks.size(), 1u);
  size_t rows = 0;
  for (const auto& p : blocks[0].paragraphs) rows += p.rows.size();
  EXPECT_EQ(rows, 8u);
}

TEST(ReadingOrder, WideWhiteSpaceStartsABlockAndSpacingAParagraph) {
  std::vector<Quad> boxes;
  for (int i = 0; i < 3; ++i) boxes.push_back(rect(100, 100 + 40.f * i, 500, 30));  // paragraph 1
  for (int i = 0; i < 3; ++i) boxes.push_back(rect(100, 240 + 40.f * i, 500, 30));  // after a 20 px larger gap
  for (int i = 0; i < 2; ++i) boxes.push_back(rect(100, 500 + 40.f * i, 500, 30));  // after a wide gap
  const auto blocks = reading_order(boxes);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].paragraphs.size(), 2u);
  EXPECT_EQ(blocks[1].paragraphs.size(), 1u);
  const auto seq = reading_sequence(blocks);
  for (size_t i = 0; i < seq.size(); ++i) EXPECT_EQ(seq[i], i);
}

TEST(ReadingOrder, EveryBoxOnceWhateverTheLayout) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(0.f, 1500.f), len(20.f, 400.f);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Quad> boxes;
    for (int i = 0; i < 60; ++i) boxes.push_back(rect(pos(rng), pos(rng), len(rng), 25.f + (i % 4) * 5.f));
    auto seq = reading_sequence(reading_order(boxes));
    ASSERT_EQ(seq.size(), boxes.size());
    std::sort(seq.begin(), seq.end());
    for (size_t i = 0; i < seq.size(); ++i) ASSERT_EQ(seq[i], i);
  }
  EXPECT_TRUE(reading_order({}).empty());
}
