// Recognition accuracy and normalised edit distance.
#include "ocrforge/vision/rec_metric.h"

#include <gtest/gtest.h>

using ocrforge::RecMetric;

TEST(RecMetric, AccuracyAndNormEditDistance) {
  RecMetric m;
  EXPECT_TRUE(m.add("hello", "hello"));
  EXPECT_FALSE(m.add("helo", "hello"));  // 1 edit / 5
  EXPECT_EQ(m.count(), 2);
  EXPECT_DOUBLE_EQ(m.acc(), 0.5);
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), 1.0 - (0.0 + 0.2) / 2);
}

TEST(RecMetric, IgnoresSpacesByDefault) {
  RecMetric m;
  EXPECT_TRUE(m.add("a b", "ab"));
  EXPECT_DOUBLE_EQ(m.acc(), 1.0);
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), 1.0);
  RecMetric strict(false);
  EXPECT_FALSE(strict.add("a b", "ab"));  // one deletion over 3 characters
  EXPECT_DOUBLE_EQ(strict.acc(), 0.0);
  EXPECT_DOUBLE_EQ(strict.norm_edit_dis(), 1.0 - 1.0 / 3);
}

TEST(RecMetric, CountsCodePointsNotBytes) {
  RecMetric m;
  m.add("中", "中文");  // 1 edit / 2 characters (6 bytes)
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), 0.5);
}

TEST(RecMetric, EmptyStrings) {
  RecMetric m;
  m.add("", "");
  EXPECT_DOUBLE_EQ(m.acc(), 1.0);
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), 1.0);
  m.add("abc", "");  // 3 / max(3, 0)
  EXPECT_DOUBLE_EQ(m.norm_edit_dis(), 0.5);
}

TEST(RecMetric, NoSamplesAndReset) {
  RecMetric m;
  EXPECT_EQ(m.acc(), 0.0);
  EXPECT_EQ(m.norm_edit_dis(), 0.0);
  m.add("x", "y");
  m.reset();
  EXPECT_EQ(m.count(), 0);
  EXPECT_EQ(m.acc(), 0.0);
}
