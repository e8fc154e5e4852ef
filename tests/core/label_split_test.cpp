// Seeded train / eval split of label lines.
#include "ocrforge/core/label_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ocrforge/core/error.h"

using ocrforge::split_label_lines;

namespace {

std::vector<std::string> numbered(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back("img_" + std::to_string(i) + ".jpg\tword");
  return v;
}

}  // namespace

TEST(LabelSplit, PartitionsEveryLineOnceKeepingFileOrder) {
  const auto lines = numbered(100);
  const auto s = split_label_lines(lines, 0.9, 7);
  EXPECT_EQ(s.train.size(), 90u);
  EXPECT_EQ(s.eval.size(), 10u);
  std::set<std::string> all(s.train.begin(), s.train.end());
  all.insert(s.eval.begin(), s.eval.end());
  EXPECT_EQ(all.size(), 100u);  // nothing lost, nothing twice
  const auto pos = [&](const std::string& l) { return std::find(lines.begin(), lines.end(), l) - lines.begin(); };
  for (const auto* part : {&s.train, &s.eval})
    for (size_t i = 1; i < part->size(); ++i) EXPECT_LT(pos((*part)[i - 1]), pos((*part)[i]));
  // Not simply the first 90 lines: the shuffle picks the eval lines.
  EXPECT_NE(s.eval.front(), lines[90]);
}

TEST(LabelSplit, SameSeedSameSplitOtherSeedOtherSplit) {
  const auto lines = numbered(50);
  EXPECT_EQ(split_label_lines(lines, 0.8, 1).eval, split_label_lines(lines, 0.8, 1).eval);
  EXPECT_NE(split_label_lines(lines, 0.8, 1).eval, split_label_lines(lines, 0.8, 2).eval);
}

TEST(LabelSplit, EachPartGetsAtLeastOneLine) {
  EXPECT_EQ(split_label_lines(numbered(2), 0.99, 1).eval.size(), 1u);
  EXPECT_EQ(split_label_lines(numbered(2), 0.01, 1).train.size(), 1u);
  EXPECT_EQ(split_label_lines(numbered(5), 0.5, 1).train.size(), 3u);  // 2.5 rounds away from zero
}

TEST(LabelSplit, RefusesBadRatiosAndTooFewLines) {
  EXPECT_THROW(split_label_lines(numbered(10), 0.0, 1), ocrforge::UsageError);
  EXPECT_THROW(split_label_lines(numbered(10), 1.0, 1), ocrforge::UsageError);
  EXPECT_THROW(split_label_lines(numbered(1), 0.5, 1), ocrforge::UsageError);
}
