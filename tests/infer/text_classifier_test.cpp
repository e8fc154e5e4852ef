#include "ocrforge/infer/text_classifier.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "test_support.h"

using namespace ocrforge;

TEST(TextClassifier, DetectsAndUndoesUpsideDownLines) {
  ClsParams p;
  p.model_dir = test::model_root() + "/cls";
  TextClassifier cls(p, RuntimeParams{});
  cv::Mat upright = cv::imread(test::data_dir() + "/samples/ch_word_3.jpg");
  cv::Mat flipped;
  cv::rotate(upright, flipped, cv::ROTATE_180);
  std::vector<cv::Mat> crops{upright.clone(), flipped.clone()};
  auto r = cls.classify(crops);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].label, "0");
  EXPECT_EQ(r[1].label, "180");
  EXPECT_GT(r[1].score, 0.9f);
  // The upside-down crop was turned back; the upright one left alone.
  EXPECT_EQ(cv::norm(crops[1], upright, cv::NORM_L1), 0.0);
  EXPECT_EQ(cv::norm(crops[0], upright, cv::NORM_L1), 0.0);
}
