// PaddleOCR's RandAugment (data/rand_augment.h): each of the 14 operations
// does what PIL does to the same bytes at the default magnitude 5, the draw
// is reproducible from the seed, prob 0 leaves the image alone, and bad
// parameters are refused naming the key.
#include "ocrforge/train/data/rand_augment.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

cv::Mat flat(int value, int h = 8, int w = 12) { return cv::Mat(h, w, CV_8UC3, cv::Scalar::all(value)); }

int at(const cv::Mat& m, int y, int x, int c = 0) { return m.at<cv::Vec3b>(y, x)[c]; }

TEST(RandAugment, EveryOperationKeepsSizeAndType) {
  cv::Mat img(20, 30, CV_8UC3);
  cv::randu(img, 0, 256);
  for (const std::string& op : rand_augment_ops())
    for (int sign : {1, -1}) {
      const cv::Mat out = rand_augment_op(img, op, 5, sign);
      EXPECT_EQ(out.size(), img.size()) << op;
      EXPECT_EQ(out.type(), CV_8UC3) << op;
    }
  EXPECT_EQ(rand_augment_ops().size(), 14u);
}

TEST(RandAugment, PointOperationsArePils) {
  // Brightness: factor 1 +- 0.9 * 0.5, truncated: 100 -> 145 / 55.
  EXPECT_EQ(at(rand_augment_op(flat(100), "brightness", 5, 1), 0, 0), 145);
  EXPECT_EQ(at(rand_augment_op(flat(100), "brightness", 5, -1), 0, 0), 55);
  // Solarize at 256 * 0.5 = 128: values from 128 up are inverted.
  EXPECT_EQ(at(rand_augment_op(flat(200), "solarize", 5, 1), 0, 0), 55);
  EXPECT_EQ(at(rand_augment_op(flat(127), "solarize", 5, 1), 0, 0), 127);
  // Posterize keeps int(4 * 0.5) = 2 bits: 181 (0b10110101) -> 128.
  EXPECT_EQ(at(rand_augment_op(flat(181), "posterize", 5, 1), 0, 0), 128);
  EXPECT_EQ(at(rand_augment_op(flat(181), "invert", 5, 1), 0, 0), 74);
  // Contrast blends with the mean grey: a flat image stays as it is.
  EXPECT_EQ(at(rand_augment_op(flat(90), "contrast", 5, 1), 3, 3), 90);
}

TEST(RandAugment, ColourMovesAwayFromOrTowardsGrey) {
  cv::Mat img = flat(0, 4, 4);
  img.setTo(cv::Scalar(200, 100, 50));
  // PIL's grey of (200, 100, 50) read as RGB: (200*19595 + 100*38470 + 50*7471 + 32768) >> 16 = 124.
  const cv::Mat more = rand_augment_op(img, "color", 5, 1), less = rand_augment_op(img, "color", 5, -1);
  EXPECT_EQ(at(more, 0, 0, 0), static_cast<int>(124 + 1.45 * (200 - 124)));
  EXPECT_EQ(at(less, 0, 0, 0), static_cast<int>(124 + 0.55 * (200 - 124)));
  EXPECT_EQ(at(less, 0, 0, 2), static_cast<int>(124 + 0.55 * (50 - 124)));
}

TEST(RandAugment, HistogramOperationsArePils) {
  cv::Mat img = flat(50, 4, 4);
  img.rowRange(2, 4).setTo(cv::Scalar::all(100));
  const cv::Mat ac = rand_augment_op(img, "autocontrast", 5, 1);
  EXPECT_EQ(at(ac, 0, 0), 0);
  // 100 * (255 / 50) - 50 * (255 / 50) is 254.99999999999997 in doubles, and
  // PIL truncates it as we do: 254, not 255.
  EXPECT_EQ(at(ac, 3, 0), 254);
  // Equalize, PIL's lookup: 8 pixels at 50 and 8 at 100: step (16 - 8) / 255 = 0 -> unchanged.
  EXPECT_EQ(at(rand_augment_op(img, "equalize", 5, 1), 0, 0), 50);
  cv::Mat ramp(1, 256 * 4, CV_8UC3);
  for (int x = 0; x < ramp.cols; ++x) ramp.at<cv::Vec3b>(0, x) = cv::Vec3b::all(static_cast<uchar>(x / 8));
  // Values 0..127, 8 pixels each: step (1024 - 8) / 255 = 3, lut[v] = (1 + 8 v) / 3.
  const cv::Mat eq = rand_augment_op(ramp, "equalize", 5, 1);
  EXPECT_EQ(at(eq, 0, 8 * 10), (1 + 8 * 10) / 3);
}

TEST(RandAugment, GeometryFillsWithGreyAndMovesContent) {
  cv::Mat img = flat(255, 10, 20);
  img.col(19).setTo(cv::Scalar::all(0));  // a black last column
  // translateX +: the output reads the input 150 / 331 * 0.5 * 20 = 4.5 pixels to the right.
  const cv::Mat tx = rand_augment_op(img, "translateX", 5, 1);
  EXPECT_EQ(at(tx, 5, 19), 128);                  // uncovered: grey
  EXPECT_TRUE(at(tx, 5, 15) == 0 || at(tx, 5, 14) == 0);  // the black column moved left
  // Rotation by 15 degrees uncovers the corners.
  const cv::Mat rot = rand_augment_op(flat(255, 40, 40), "rotate", 5, 1);
  EXPECT_EQ(at(rot, 0, 0), 128);
  EXPECT_EQ(at(rot, 20, 20), 255);
  const cv::Mat shear = rand_augment_op(flat(255, 20, 40), "shearX", 5, 1);
  EXPECT_EQ(at(shear, 19, 39), 128);  // the bottom right reads 0.15 * 19.5 pixels further right
  EXPECT_EQ(at(shear, 0, 0), 255);
}

TEST(RandAugment, TheDrawIsReproducibleAndProbZeroChangesNothing) {
  cv::Mat img(16, 24, CV_8UC3);
  cv::randu(img, 0, 256);
  RandAugmentParams p;
  p.prob = 1.0;
  DataRng a(42), b(42);
  const cv::Mat x = rand_augment(img, p, a), y = rand_augment(img, p, b);
  EXPECT_EQ(cv::norm(x, y, cv::NORM_INF), 0.0);
  bool changed = false;
  for (uint64_t seed = 1; seed < 20 && !changed; ++seed) {
    DataRng r(seed);
    changed = cv::norm(rand_augment(img, p, r), img, cv::NORM_INF) > 0;
  }
  EXPECT_TRUE(changed);
  p.prob = 0.0;
  DataRng r(7);
  EXPECT_EQ(cv::norm(rand_augment(img, p, r), img, cv::NORM_INF), 0.0);
}

TEST(RandAugment, ParametersComeFromTheConfigAndBadOnesAreRefused) {
  const RandAugmentParams d = rand_augment_from_yaml(YAML::Node(), "Train.dataset.transforms.RandAugment");
  EXPECT_DOUBLE_EQ(d.prob, 0.5);
  EXPECT_EQ(d.num_layers, 2);
  EXPECT_DOUBLE_EQ(d.magnitude, 5);
  const RandAugmentParams p = rand_augment_from_yaml(YAML::Load("{prob: 0.3, num_layers: 3, magnitude: 9}"), "R");
  EXPECT_DOUBLE_EQ(p.prob, 0.3);
  EXPECT_EQ(p.num_layers, 3);
  EXPECT_DOUBLE_EQ(p.magnitude, 9);
  std::string msg = test::message_of<UsageError>([] { rand_augment_from_yaml(YAML::Load("{magnitude: 11}"), "R"); });
  EXPECT_NE(msg.find("R.magnitude"), std::string::npos) << msg;
  msg = test::message_of<UsageError>([] { rand_augment_from_yaml(YAML::Load("{fillcolor: [0, 0, 0]}"), "R"); });
  EXPECT_NE(msg.find("R.fillcolor"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ocrforge
