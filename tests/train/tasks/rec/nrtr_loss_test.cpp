// NRTRLoss against the cross-entropy computed by hand: targets are the label
// shifted by one, padding ignored, PaddleOCR's label smoothing (0.9 on the
// class, 0.1 / (V - 1) elsewhere).
#include "ocrforge/train/tasks/rec/nrtr_loss.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ocrforge {
namespace {

TEST(NrtrLoss, IsTheCrossEntropyOfTheShiftedLabelWithPaddingIgnored) {
  torch::manual_seed(6);
  const int64_t V = 6;
  const auto label = torch::tensor({{2, 4, 5, 3, 0}, {2, 5, 3, 0, 0}}, torch::kInt64);
  const auto length = torch::tensor({2, 1}, torch::kInt64);
  const auto logits = torch::randn({2, 3, V});  // max length 2 + 1 steps
  const auto l = logits.accessor<float, 3>();
  const auto log_p = [&](int n, int t, int c) {
    double z = 0;
    for (int k = 0; k < V; ++k) z += std::exp(static_cast<double>(l[n][t][k]));
    return static_cast<double>(l[n][t][c]) - std::log(z);
  };
  // Targets label[:, 1:4]: (0,0)->4 (0,1)->5 (0,2)->3 (1,0)->5 (1,1)->3, (1,2) padding.
  const int targets[5][3] = {{0, 0, 4}, {0, 1, 5}, {0, 2, 3}, {1, 0, 5}, {1, 1, 3}};
  double plain = 0, smooth = 0;
  for (const auto& t : targets) {
    plain -= log_p(t[0], t[1], t[2]);
    for (int c = 0; c < V; ++c) smooth -= (c == t[2] ? 0.9 : 0.1 / (V - 1)) * log_p(t[0], t[1], c);
  }
  EXPECT_NEAR(nrtr_loss(logits, label, length, false).item<double>(), plain / 5, 1e-5);
  EXPECT_NEAR(nrtr_loss(logits, label, length, true).item<double>(), smooth / 5, 1e-5);
  // Steps that disagree with the longest text are refused.
  EXPECT_ANY_THROW(nrtr_loss(logits.narrow(1, 0, 2), label, length));
}

TEST(NrtrLoss, PerfectPredictionsGiveTheSmoothingFloor) {
  const auto label = torch::tensor({{2, 4, 3, 0}}, torch::kInt64);
  auto logits = torch::full({1, 2, 5}, -30.0);
  logits[0][0][4] = 30.0;
  logits[0][1][3] = 30.0;
  const auto length = torch::tensor({1}, torch::kInt64);
  EXPECT_LT(nrtr_loss(logits, label, length, false).item<double>(), 1e-6);
  EXPECT_GT(nrtr_loss(logits, label, length, true).item<double>(), 1.0);  // 0.1 of the mass is asked elsewhere
}

}  // namespace
}  // namespace ocrforge
