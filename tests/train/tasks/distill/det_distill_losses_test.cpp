// The CML loss functions against values worked out by hand on small maps
// (PaddleOCR's DistillationDilaDBLoss and DMLLoss on maps), and the
// dilation against OpenCV's cv::dilate, which PaddleOCR calls.
#include "ocrforge/train/tasks/distill/det_distill_losses.h"

#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/imgproc.hpp>

using namespace ocrforge;

namespace {
torch::Tensor map(std::vector<float> v, int64_t n, int64_t h, int64_t w) {
  return torch::tensor(v).reshape({n, h, w});
}
}  // namespace

TEST(DetDistillLosses, TeacherLabelIsThresholdedAtPoint3AndGrowsOnePixelRightAndDown) {
  // > 0.3 is text (0.3 itself is not); each text pixel also marks its right,
  // lower and lower-right neighbours; nothing wraps past the border.
  const auto t = map({0.1f, 0.5f, 0.2f, 0.0f,  //
                      0.0f, 0.0f, 0.0f, 0.4f,  //
                      0.3f, 0.0f, 0.0f, 0.0f},
                     1, 3, 4);
  const auto expected = map({0, 1, 1, 0,  //
                             0, 1, 1, 1,  //
                             0, 0, 0, 1},
                            1, 3, 4);
  EXPECT_TRUE(torch::equal(dilated_teacher_label(t), expected)) << dilated_teacher_label(t);
}

TEST(DetDistillLosses, DilationEqualsOpenCvsTwoByTwoDilate) {
  torch::manual_seed(4);
  const auto t = torch::rand({3, 17, 23});
  const auto ours = dilated_teacher_label(t);
  for (int64_t i = 0; i < t.size(0); ++i) {
    const torch::Tensor bin = (t[i] > 0.3).to(torch::kUInt8).contiguous();
    cv::Mat src(17, 23, CV_8U, bin.data_ptr<uint8_t>());
    cv::Mat dst;
    cv::dilate(src, dst, cv::Mat::ones(2, 2, CV_8U));
    const torch::Tensor cv_out = torch::from_blob(dst.data, {17, 23}, torch::kUInt8).to(torch::kFloat32);
    EXPECT_TRUE(torch::equal(ours[i], cv_out)) << "image " << i;
  }
}

TEST(DetDistillLosses, DilaDbLossByHand) {
  // Teacher: text at (0,0) only -> label G = [[1,1,0],[1,1,0]]. Mask M drops (1,1).
  const auto teacher = map({0.9f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f}, 1, 2, 3);
  const auto mask = map({1, 1, 1, 1, 0, 1}, 1, 2, 3);
  const auto shrink = map({0.8f, 0.6f, 0.2f, 0.4f, 0.9f, 0.1f}, 1, 2, 3);
  const auto binary = map({0.7f, 0.5f, 0.3f, 0.6f, 0.2f, 0.2f}, 1, 2, 3);
  // Dice(P, G, M) = 1 - 2 * (0.8 + 0.6 + 0.4) / ((0.8 + 0.6 + 0.2 + 0.4 + 0.1) + 3 + 1e-6).
  const double eps = 1e-6;
  const double dice_p = 1.0 - 2.0 * 1.8 / (2.1 + 3.0 + eps);
  // BalanceLoss spreads that scalar over the 3 positives and the 2 negatives (<= 3 x 3 kept).
  const double balanced = dice_p * 5.0 / (5.0 + eps);
  // Dice(B, G, M) = 1 - 2 * (0.7 + 0.5 + 0.6) / ((0.7 + 0.5 + 0.3 + 0.6 + 0.2) + 3 + 1e-6).
  const double dice_b = 1.0 - 2.0 * 1.8 / (2.3 + 3.0 + eps);
  const double expected = 5.0 * balanced + dice_b;
  const double got = dila_db_loss(shrink, binary, teacher, mask, DBLossSpec{}).item<double>();
  EXPECT_NEAR(got, expected, 1e-6);
  EXPECT_NEAR(expected, 5.0 * 0.294117 + 0.320754, 1e-5);  // the numbers, for the reader
}

TEST(DetDistillLosses, DilaDbGradientReachesTheStudentOnly) {
  auto teacher = torch::rand({2, 8, 8}).requires_grad_(true);
  auto shrink = torch::rand({2, 8, 8}).requires_grad_(true);
  auto binary = torch::rand({2, 8, 8}).requires_grad_(true);
  dila_db_loss(shrink, binary, teacher, torch::ones({2, 8, 8}), DBLossSpec{}).backward();
  EXPECT_TRUE(shrink.grad().defined());
  EXPECT_TRUE(binary.grad().defined());
  EXPECT_FALSE(teacher.grad().defined());  // the teacher's map is thresholded: a label, not an input
}

TEST(DetDistillLosses, DmlOnMapsIsPaddlesSymmetricKlPerSample) {
  const auto a = map({0.2f, 0.7f, 0.9f, 0.0f}, 2, 1, 2);
  const auto b = map({0.5f, 0.5f, 0.9f, 0.4f}, 2, 1, 2);
  const auto kl = [](double p1, double p2) {
    const double e = 1e-5;
    return 0.5 * (p2 * std::log((p2 + e) / (p1 + e) + e) + p1 * std::log((p1 + e) / (p2 + e) + e));
  };
  const auto got = dml_maps_per_sample(a, b, "");
  ASSERT_EQ(got.sizes(), (std::vector<int64_t>{2}));  // one value per sample, as PaddleOCR's KLJSLoss
  EXPECT_NEAR(got[0].item<double>(), (kl(0.2, 0.5) + kl(0.7, 0.5)) / 2, 1e-6);
  EXPECT_NEAR(got[1].item<double>(), (kl(0.9, 0.9) + kl(0.0, 0.4)) / 2, 1e-6);
  // Symmetric in the two models, and ~0 for equal maps (the +1e-5 inside the log leaves ~1e-5).
  EXPECT_NEAR((dml_maps_per_sample(b, a, "") - got).abs().max().item<double>(), 0.0, 1e-7);
  EXPECT_LT(dml_maps_per_sample(a, a, "").abs().max().item<double>(), 2e-5);
  // act: sigmoid first (+1e-10), as DMLLoss.
  const double s1 = 1 / (1 + std::exp(-0.2)), s2 = 1 / (1 + std::exp(-0.5));
  const double s3 = 1 / (1 + std::exp(-0.7)), s4 = 1 / (1 + std::exp(-0.5));
  EXPECT_NEAR(dml_maps_per_sample(a, b, "sigmoid")[0].item<double>(), (kl(s1, s2) + kl(s3, s4)) / 2, 1e-6);
}
