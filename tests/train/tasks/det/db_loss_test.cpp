// DBLoss on hand-made maps, values computed by hand: a perfect prediction
// costs ~0, an inverted one the sum worked out below; OHEM keeps the
// hardest negatives under PaddleOCR's count rule; empty masks and text-free
// batches stay finite; a few SGD steps on a tiny DetModel lower the loss.
#include "ocrforge/train/tasks/det/db_loss.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model.h"

using namespace ocrforge;

namespace {
torch::Tensor t(std::vector<float> v, int64_t h, int64_t w) {
  return torch::tensor(v).reshape({1, h, w});
}

// A 1 x 4 x 4 image: a 2x2 text region in the top-left corner.
DBTargets square_targets() {
  DBTargets g;
  g.shrink_map = torch::zeros({1, 4, 4});
  g.shrink_map.index_put_({0, torch::indexing::Slice(0, 2), torch::indexing::Slice(0, 2)}, 1.0);
  g.shrink_mask = torch::ones({1, 4, 4});
  g.threshold_map = torch::full({1, 4, 4}, 0.5);
  g.threshold_mask = torch::ones({1, 4, 4});
  return g;
}

torch::Tensor stack_maps(const torch::Tensor& shrink, const torch::Tensor& threshold, const torch::Tensor& binary) {
  return torch::stack({shrink, threshold, binary}, 1);  // N x 3 x H x W
}

DBLossSpec bce() {
  DBLossSpec s;
  s.main_loss_type = "BCELoss";
  return s;
}

void expect_finite(const DBLossParts& p) {
  ASSERT_EQ(p.named().size(), 4u);
  for (const auto& [name, v] : p.named()) EXPECT_TRUE(std::isfinite(v.item<double>())) << name;
}
}  // namespace

TEST(DBLoss, PerfectPredictionCostsNothing) {
  const auto g = square_targets();
  const auto maps = stack_maps(g.shrink_map, g.threshold_map, g.shrink_map);
  for (const auto& spec : {bce(), DBLossSpec{}}) {
    SCOPED_TRACE(spec.main_loss_type);
    const auto p = DBLoss(spec)(maps, g);
    EXPECT_NEAR(p.loss.item<double>(), 0.0, 1e-5);
    EXPECT_NEAR(p.loss_threshold_maps.item<double>(), 0.0, 1e-6);
  }
}

TEST(DBLoss, InvertedPredictionCostsTheHandComputedSum) {
  const auto g = square_targets();
  // shrink 0.1 on text and 0.9 elsewhere: BCE -ln(0.1) at every pixel, so the
  // balanced mean is ln(10) whatever OHEM keeps: 5 ln 10 = 11.5129.
  // threshold 0 against 0.5 everywhere: L1 0.5, x10 = 5.
  // binary exactly 1 - gt: no overlap, Dice 1.
  const auto shrink = 0.9f - 0.8f * g.shrink_map;
  const auto maps = stack_maps(shrink, torch::zeros({1, 4, 4}), 1.0f - g.shrink_map);
  const auto p = DBLoss(bce())(maps, g);
  EXPECT_NEAR(p.loss_shrink_maps.item<double>(), 5 * std::log(10.0), 1e-4);
  EXPECT_NEAR(p.loss_threshold_maps.item<double>(), 5.0, 1e-4);
  EXPECT_NEAR(p.loss_binary_maps.item<double>(), 1.0, 1e-6);
  EXPECT_NEAR(p.loss.item<double>(), 5 * std::log(10.0) + 5.0 + 1.0, 1e-4);
  // The same maps under PaddleOCR's default main loss (Dice inside
  // BalanceLoss): shrink Dice = 1 - 2 * (4 * 0.1) / (4 * 0.1 + 12 * 0.9 + 4) = 0.94595.
  const auto d = DBLoss(DBLossSpec{})(maps, g);
  EXPECT_NEAR(d.loss_shrink_maps.item<double>(), 5 * (1 - 0.8 / 15.2), 1e-4);
}

TEST(DBLoss, OhemKeepsTheHardestNegativesUnderPaddleOCRsCountRule) {
  // 1 x 1 x 8 "image". Positives = gt * mask = 1 + 0.6 = 1.6 -> int() = 1;
  // negatives (1 - gt) * mask sum to 5 -> kept min(5, 1 * 3) = 3: the losses
  // 4, 3 and 1 (9 is masked out, 0.5 and 0.25 are easier).
  const auto gt = t({1, 1, 0, 0, 0, 0, 0, 0}, 1, 8);
  const auto mask = t({1, 0.6f, 1, 1, 1, 1, 1, 0}, 1, 8);
  const auto loss = t({2, 7, 0.5f, 4, 1, 3, 0.25f, 9}, 1, 8);
  // (2 + 0.6 * 7 + 4 + 3 + 1) / (1 + 3 + 1e-6)
  EXPECT_NEAR(ohem_balance(loss, gt, mask, 3.0).item<double>(), 14.2 / (4 + 1e-6), 1e-5);
  // ratio 1: one negative (the 4).
  EXPECT_NEAR(ohem_balance(loss, gt, mask, 1.0).item<double>(), (6.2 + 4) / (2 + 1e-6), 1e-5);
}

TEST(DBLoss, OhemOnBceMapsPicksTheWorstBackgroundPixels) {
  // One text pixel predicted 0.5, ten background pixels; three of them are
  // badly wrong (0.9, 0.8, 0.7). With ratio 3 exactly those three count.
  auto g = DBTargets{};
  g.shrink_map = t({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, 11);
  g.shrink_mask = torch::ones({1, 1, 11});
  g.threshold_map = torch::zeros({1, 1, 11});
  g.threshold_mask = torch::zeros({1, 1, 11});
  const auto shrink = t({0.5f, 0.1f, 0.9f, 0.1f, 0.8f, 0.1f, 0.7f, 0.1f, 0.1f, 0.1f, 0.1f}, 1, 11);
  const auto p = DBLoss(bce())(stack_maps(shrink, torch::zeros({1, 1, 11}), shrink), g);
  const double expected = (std::log(2.0) - std::log(0.1) - std::log(0.2) - std::log(0.3)) / 4.0;
  EXPECT_NEAR(p.loss_shrink_maps.item<double>(), 5 * expected, 1e-4);
}

TEST(DBLoss, TextFreeBatchAndEmptyMasksStayFinite) {
  const int64_t n = 2, h = 8, w = 8;
  const auto pred = torch::full({n, 3, h, w}, 0.3, torch::requires_grad());
  DBTargets empty{torch::zeros({n, h, w}), torch::ones({n, h, w}), torch::zeros({n, h, w}), torch::zeros({n, h, w})};
  DBTargets masked{torch::zeros({n, h, w}), torch::zeros({n, h, w}), torch::zeros({n, h, w}), torch::zeros({n, h, w})};
  for (const auto& spec : {bce(), DBLossSpec{}}) {
    for (const auto* g : {&empty, &masked}) {
      SCOPED_TRACE(spec.main_loss_type + (g == &empty ? " text-free" : " all masked"));
      const auto p = DBLoss(spec)(pred, *g);
      expect_finite(p);
      EXPECT_EQ(p.loss_shrink_maps.item<double>(), 0.0);     // no positive: nothing mined
      EXPECT_EQ(p.loss_threshold_maps.item<double>(), 0.0);  // empty threshold mask
      pred.mutable_grad() = torch::Tensor();
      p.loss.backward();
      ASSERT_TRUE(pred.grad().defined());
      EXPECT_TRUE(torch::isfinite(pred.grad()).all().item<bool>());
    }
  }
}

TEST(DBLoss, PartsSumToTheLossInPaddleOCRsOrder) {
  torch::manual_seed(0);
  const auto g = square_targets();
  const auto p = DBLoss(bce())(torch::rand({1, 3, 4, 4}), g);
  const auto named = p.named();
  ASSERT_EQ(named.size(), 4u);
  EXPECT_EQ(named[0].first, "loss");
  EXPECT_EQ(named[1].first, "loss_shrink_maps");
  EXPECT_EQ(named[2].first, "loss_threshold_maps");
  EXPECT_EQ(named[3].first, "loss_binary_maps");
  EXPECT_NEAR(p.loss.item<double>(),
              (p.loss_shrink_maps + p.loss_threshold_maps + p.loss_binary_maps).item<double>(), 1e-6);
}

TEST(DBLoss, RejectsMismatchedShapes) {
  const auto g = square_targets();
  try {
    DBLoss()(torch::rand({1, 3, 8, 8}), g);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shrink_map"), std::string::npos) << e.what();
  }
  EXPECT_THROW(DBLoss()(torch::rand({1, 1, 4, 4}), g), Error);  // eval-mode output
  DBLossSpec bad;
  bad.main_loss_type = "Focal";
  EXPECT_THROW(DBLoss{bad}, UsageError);
}

TEST(DBLoss, SgdStepsLowerTheLossOnAFixedBatch) {
  torch::manual_seed(7);
  DetArchSpec s;
  s.backbone.model_name = "small";
  s.backbone.scale = 0.35;
  s.neck.out_channels = 16;
  // Two 64x64 images, each with one text block.
  const auto x = torch::randn({2, 3, 64, 64});
  DBTargets g{torch::zeros({2, 64, 64}), torch::ones({2, 64, 64}), torch::full({2, 64, 64}, 0.3),
              torch::ones({2, 64, 64})};
  using torch::indexing::Slice;
  g.shrink_map.index_put_({0, Slice(16, 32), Slice(8, 56)}, 1.0);
  g.shrink_map.index_put_({1, Slice(40, 52), Slice(4, 40)}, 1.0);
  g.threshold_map.index_put_({Slice(), Slice(12, 36), Slice()}, 0.7);
  for (const auto& spec : {bce(), DBLossSpec{}}) {
    SCOPED_TRACE(spec.main_loss_type);
    torch::manual_seed(7);
    DetModel m(s);
    m->train();
    torch::optim::SGD opt(m->parameters(), torch::optim::SGDOptions(0.2).momentum(0.9));
    DBLoss loss(spec);
    double first = 0, last = 0;
    for (int step = 0; step < 12; ++step) {
      opt.zero_grad();
      const auto p = loss(m->forward(x), g);
      p.loss.backward();
      opt.step();
      (step == 0 ? first : last) = p.loss.item<double>();
    }
    // Seen here: BCELoss 7.10 -> 4.77, DiceLoss 6.98 -> 5.67.
    EXPECT_LT(last, 0.9 * first) << "first " << first << " last " << last;
  }
}
