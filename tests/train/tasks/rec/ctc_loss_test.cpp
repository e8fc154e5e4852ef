// ctc_loss: hand-computed values, batch mean without length normalisation,
// focal weighting, infeasible labels, and training signal through RecModel.
#include "ocrforge/train/tasks/rec/ctc_loss.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "train/tasks/rec/rec_specs.h"

using namespace ocrforge;

namespace {
// Logits whose softmax is exactly `probs` (log p, N x T x C).
torch::Tensor logits_of(const std::vector<std::vector<std::vector<double>>>& probs) {
  const auto n = int64_t(probs.size()), t = int64_t(probs[0].size()), c = int64_t(probs[0][0].size());
  auto out = torch::empty({n, t, c});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < t; ++j)
      for (int64_t k = 0; k < c; ++k) out[i][j][k] = std::log(probs[i][j][k]);
  return out;
}
torch::Tensor longs(std::vector<int64_t> v, std::vector<int64_t> shape) {
  return torch::tensor(v, torch::kLong).reshape(shape);
}
}  // namespace

TEST(CtcLoss, MatchesHandComputedTwoStepExample) {
  // T=2, C=2, label [1]: paths 11, 10, 01 -> 0.75*0.5 + 0.75*0.5 + 0.25*0.5 = 0.875.
  const auto logits = logits_of({{{0.25, 0.75}, {0.5, 0.5}}});
  const auto loss = ctc_loss(logits, longs({1}, {1, 1}), longs({1}, {1}));
  EXPECT_NEAR(loss.item<double>(), -std::log(0.875), 1e-6);
}

TEST(CtcLoss, BatchMeanIsNotDividedByLabelLength) {
  // Sample 0 as above; sample 1 (C=3 padded labels [1,2]): only path "12" = 0.6 * 0.3.
  const auto logits = logits_of({{{0.25, 0.75, 1e-9}, {0.5, 0.5, 1e-9}}, {{0.2, 0.6, 0.2}, {0.3, 0.4, 0.3}}});
  const auto labels = longs({1, 0, 1, 2}, {2, 2});  // first label padded with 0
  const double l0 = -std::log(0.875 / (1 + 1e-9) / (1 + 1e-9)), l1 = -std::log(0.6 * 0.3);
  const auto loss = ctc_loss(logits, labels, longs({1, 2}, {2}));
  EXPECT_NEAR(loss.item<double>(), (l0 + l1) / 2, 1e-5);
  const auto focal = ctc_loss(logits, labels, longs({1, 2}, {2}), /*use_focal_loss=*/true);
  const auto w = [](double l) { return std::pow(1 - std::exp(-l), 2); };
  EXPECT_NEAR(focal.item<double>(), (l0 * w(l0) + l1 * w(l1)) / 2, 1e-5);
}

TEST(CtcLoss, InfeasibleLabelContributesZero) {
  // "11" needs 3 steps (1, blank, 1); with T=2 it is impossible: 0 like warpctc, not inf.
  const auto logits = torch::zeros({2, 2, 2}, torch::requires_grad());
  const auto loss = ctc_loss(logits, longs({1, 1, 1, 0}, {2, 2}), longs({2, 1}, {2}));
  EXPECT_NEAR(loss.item<double>(), -std::log(0.75) / 2, 1e-6);
  loss.backward();
  EXPECT_TRUE(torch::isfinite(logits.grad()).all().item<bool>());
}

TEST(CtcLoss, RejectsMismatchedShapes) {
  const auto logits = torch::zeros({2, 4, 3});
  EXPECT_THROW(ctc_loss(logits, longs({1, 1}, {1, 2}), longs({1}, {1})), Error);
  EXPECT_THROW(ctc_loss(logits, longs({1, 1}, {2, 1}), longs({1, 2}, {2})), Error);  // length > S
  EXPECT_THROW(ctc_loss(torch::zeros({4, 3}), longs({1}, {1, 1}), longs({1}, {1})), Error);
}

TEST(CtcLoss, DecreasesUnderSgdThroughRecModel) {
  torch::manual_seed(5);
  RecModel model(test::rec_spec(test::v1_defaults(), test::neck("rnn"), 6));
  model->train();
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const auto x = torch::randn({4, 3, 32, 100});
  const auto labels = longs({1, 2, 3, 0, 4, 4, 0, 0, 5, 1, 2, 3, 2, 0, 0, 0}, {4, 4});
  const auto lengths = longs({3, 2, 4, 1}, {4});
  double first = 0, last = 0;
  for (int step = 0; step < 8; ++step) {
    sgd.zero_grad();
    auto loss = ctc_loss(model->forward(x), labels, lengths);
    loss.backward();
    for (const auto& p : model->named_parameters())
      ASSERT_TRUE(!p.value().grad().defined() || torch::isfinite(p.value().grad()).all().item<bool>()) << p.key();
    if (step == 0) first = loss.item<double>();
    last = loss.item<double>();
    ASSERT_TRUE(std::isfinite(last));
    sgd.step();
  }
  EXPECT_LT(last, first * 0.8) << "first " << first << " last " << last;
}
