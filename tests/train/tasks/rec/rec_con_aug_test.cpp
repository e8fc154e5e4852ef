// RecConAug's image / label rule on known images (rec_con_aug.h).
#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include "ocrforge/train/tasks/rec/rec_con_aug.h"

namespace ocrforge {
namespace {

RecConAugPart solid(int h, int w, cv::Scalar bgr, const std::string& text) {
  return {cv::Mat(h, w, CV_8UC3, bgr), text};
}

RecConAugParams params(double prob, int ext_num, int height, int width, int max_len) {
  RecConAugParams p;
  p.prob = prob;
  p.ext_data_num = ext_num;
  p.height = height;
  p.width = width;
  p.max_text_length = max_len;
  return p;
}

TEST(RecConAug, MergeResizesToTheHeightAndJoinsImagesAndTexts) {
  RecConAugPart cur = solid(20, 50, cv::Scalar(10, 20, 30), "ab");
  const RecConAugPart ext = solid(10, 33, cv::Scalar(200, 100, 50), "cd");
  rec_con_aug_merge(&cur, ext, 32);
  // round(50 / 20 * 32) = 80, round(33 / 10 * 32) = round(105.6) = 106.
  EXPECT_EQ(cur.image.rows, 32);
  EXPECT_EQ(cur.image.cols, 80 + 106);
  EXPECT_EQ(cur.image.type(), CV_8UC3);
  EXPECT_EQ(cur.text, "abcd");
  // Left part is the first image, right part the second (solid colours
  // survive bilinear resizing unchanged).
  EXPECT_EQ(cur.image.at<cv::Vec3b>(5, 0), cv::Vec3b(10, 20, 30));
  EXPECT_EQ(cur.image.at<cv::Vec3b>(31, 79), cv::Vec3b(10, 20, 30));
  EXPECT_EQ(cur.image.at<cv::Vec3b>(0, 80), cv::Vec3b(200, 100, 50));
  EXPECT_EQ(cur.image.at<cv::Vec3b>(31, 185), cv::Vec3b(200, 100, 50));
}

TEST(RecConAug, WidthsRoundHalfToEvenAsPython) {
  // 5 / 4 * 2 = 2.5 -> 2 and 7 / 4 * 2 = 3.5 -> 4 (Python's round), 6.
  RecConAugPart cur = solid(4, 5, cv::Scalar(1, 1, 1), "a");
  rec_con_aug_merge(&cur, solid(4, 7, cv::Scalar(2, 2, 2), "b"), 2);
  EXPECT_EQ(cur.image.cols, 2 + 4);
  EXPECT_EQ(cur.image.rows, 2);
}

TEST(RecConAug, FitsChecksTheJoinedTextLengthAndAspectRatio) {
  const RecConAugParams p = params(1.0, 1, 32, 320, 5);  // max ratio 10
  const RecConAugPart cur = solid(20, 50, cv::Scalar(0, 0, 0), "abc");  // ratio 2.5
  EXPECT_TRUE(rec_con_aug_fits(cur, solid(10, 33, cv::Scalar(0, 0, 0), "de"), p));    // 5 chars, ratio 5.8
  EXPECT_FALSE(rec_con_aug_fits(cur, solid(10, 33, cv::Scalar(0, 0, 0), "def"), p));  // 6 chars
  EXPECT_TRUE(rec_con_aug_fits(cur, solid(10, 75, cv::Scalar(0, 0, 0), "d"), p));     // ratio exactly 10
  EXPECT_FALSE(rec_con_aug_fits(cur, solid(10, 76, cv::Scalar(0, 0, 0), "d"), p));    // ratio 10.1
  // Characters are code points, as Python's len(): 4 Chinese characters are 12 bytes.
  const RecConAugParams p4 = params(1.0, 1, 32, 320, 4);
  EXPECT_TRUE(rec_con_aug_fits(solid(20, 20, cv::Scalar(0, 0, 0), "中文"), solid(20, 20, cv::Scalar(0, 0, 0), "字符"), p4));
  EXPECT_FALSE(rec_con_aug_fits(solid(20, 20, cv::Scalar(0, 0, 0), "中文"), solid(20, 20, cv::Scalar(0, 0, 0), "字符x"), p4));
}

TEST(RecConAug, ProbZeroNeverConcatenates) {
  const RecConAugParams p = params(0.0, 2, 32, 320, 25);
  for (uint64_t seed = 0; seed < 300; ++seed) {
    RecConAugPart cur = solid(20, 50, cv::Scalar(1, 2, 3), "ab");
    int calls = 0;
    DataRng rng(seed);
    const int merged = rec_con_aug(&cur, p, rng, [&](RecConAugPart* ext) {
      ++calls;
      *ext = solid(20, 20, cv::Scalar(4, 5, 6), "c");
      return true;
    });
    EXPECT_EQ(merged, 0);
    EXPECT_EQ(calls, 0) << "no extra sample may be loaded when the draw fails";
    EXPECT_EQ(cur.image.cols, 50);
    EXPECT_EQ(cur.text, "ab");
  }
}

TEST(RecConAug, StopsAtTheFirstExtraSampleThatDoesNotFit) {
  const RecConAugParams p = params(1.0, 3, 32, 320, 25);
  // Ratios 2.5 + 3 fits; + 5 more would be 10.5 > 10: stop after one merge.
  RecConAugPart cur = solid(20, 50, cv::Scalar(1, 2, 3), "ab");
  std::vector<RecConAugPart> exts = {solid(10, 30, cv::Scalar(0, 0, 0), "c"), solid(10, 50, cv::Scalar(0, 0, 0), "d"),
                                     solid(10, 10, cv::Scalar(0, 0, 0), "e")};
  size_t calls = 0;
  DataRng rng(7);
  const int merged = rec_con_aug(&cur, p, rng, [&](RecConAugPart* ext) {
    *ext = exts.at(calls++);
    return true;
  });
  EXPECT_EQ(merged, 1);
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(cur.text, "abc");
  EXPECT_EQ(cur.image.cols, 80 + 96);

  // The length limit stops it too.
  RecConAugPart shorty = solid(20, 20, cv::Scalar(1, 2, 3), "abcd");
  const RecConAugParams p5 = params(1.0, 2, 32, 320, 5);
  EXPECT_EQ(rec_con_aug(&shorty, p5, rng, [](RecConAugPart* ext) {
              *ext = solid(20, 20, cv::Scalar(0, 0, 0), "xy");
              return true;
            }),
            0);
  EXPECT_EQ(shorty.text, "abcd");
  EXPECT_EQ(shorty.image.cols, 20);  // untouched: no resize without a merge

  // Two that fit are both merged; a failed load ends the step.
  RecConAugPart two = solid(32, 32, cv::Scalar(1, 2, 3), "a");
  int n = 0;
  EXPECT_EQ(rec_con_aug(&two, p, rng, [&](RecConAugPart* ext) {
              if (n++ == 2) return false;
              *ext = solid(16, 16, cv::Scalar(0, 0, 0), "b");
              return true;
            }),
            2);
  EXPECT_EQ(two.text, "abb");
  EXPECT_EQ(two.image.cols, 96);
}

TEST(RecConAug, TheDrawIsDeterministicAndFollowsProb) {
  const RecConAugParams p = params(0.5, 1, 32, 320, 25);
  int merged = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    int results[2];
    for (int& r : results) {
      RecConAugPart cur = solid(20, 40, cv::Scalar(1, 2, 3), "a");
      DataRng rng(seed);
      r = rec_con_aug(&cur, p, rng, [](RecConAugPart* ext) {
        *ext = solid(20, 40, cv::Scalar(0, 0, 0), "b");
        return true;
      });
    }
    EXPECT_EQ(results[0], results[1]) << "seed " << seed;
    merged += results[0];
  }
  EXPECT_GT(merged, 140);  // about 200 of 400
  EXPECT_LT(merged, 260);
}

}  // namespace
}  // namespace ocrforge
