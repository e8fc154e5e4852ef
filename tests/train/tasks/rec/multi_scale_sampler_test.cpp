// PaddleOCR's MultiScaleSampler: the batch sizes of PP-OCRv4's scales, the
// divided_factor rounding, fix_bs, every sample once per epoch (plus the
// last batch's top-up), equal and disjoint shards with the same step sizes on
// every rank, per-epoch reshuffling that a resume replays, evaluation mode,
// and config mistakes naming the key.
#include "ocrforge/train/tasks/rec/multi_scale_sampler.h"

#include <gtest/gtest.h>

#include <set>

#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {

MultiScaleSamplerSpec v4_spec() {
  return multi_scale_sampler_from_yaml(
      YAML::Load("{name: MultiScaleSampler, scales: [[320, 32], [320, 48], [320, 64]], first_bs: 192, fix_bs: false, "
                 "divided_factor: [8, 16], is_training: True}"),
      "Train.sampler");
}

TEST(MultiScaleSampler, PpOcrV4BatchSizes) {
  const auto b = multi_scale_batches(v4_spec());
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].height, 32);
  EXPECT_EQ(b[0].batch_size, 192);
  EXPECT_EQ(b[1].height, 48);
  EXPECT_EQ(b[1].batch_size, 128);
  EXPECT_EQ(b[2].height, 64);
  EXPECT_EQ(b[2].batch_size, 96);
  // Sizes rounded down to divided_factor; fix_bs keeps first_bs.
  auto s = multi_scale_sampler_from_yaml(
      YAML::Load("{name: MultiScaleSampler, scales: [[330, 40], 100], first_bs: 8, divided_factor: [8, 16]}"), "Train.sampler");
  const auto r = multi_scale_batches(s);
  EXPECT_EQ(r[0].width, 328);
  EXPECT_EQ(r[0].height, 32);
  EXPECT_EQ(r[1].width, 96);  // an int scale is square
  EXPECT_EQ(r[1].height, 96);
  EXPECT_EQ(r[1].batch_size, 8);  // fix_bs defaults to true
}

TEST(MultiScaleSampler, EverySampleOncePerEpochAtItsBatchSize) {
  auto spec = v4_spec();
  spec.first_bs = 6;  // 6, 4, 3
  auto sampler = make_multi_scale_sampler(spec, 7, 0, 1);
  const auto plan = sampler->epoch_batches(50, 0, 999, true);
  std::multiset<size_t> seen;
  std::map<int, int> size_of_height = {{32, 6}, {48, 4}, {64, 3}};
  for (const auto& b : plan) {
    EXPECT_EQ(static_cast<int>(b.indices.size()), size_of_height.at(b.height));
    EXPECT_EQ(b.width, 320);
    seen.insert(b.indices.begin(), b.indices.end());
  }
  for (size_t i = 0; i < 50; ++i) EXPECT_GE(seen.count(i), 1u) << i;
  // 50 = rounds of 13 (6 + 4 + 3) x 3 + 6 + 4 + 1 of 3: one top-up of 2 repeats.
  EXPECT_EQ(plan.size(), 12u);
  EXPECT_EQ(seen.size(), 52u);
  // The batch order is shuffled: not the plain 32, 48, 64 cycle.
  bool cycled = true;
  for (size_t i = 0; i < plan.size(); ++i) cycled = cycled && plan[i].height == 32 + 16 * static_cast<int>(i % 3);
  EXPECT_FALSE(cycled);
}

TEST(MultiScaleSampler, RanksGetEqualDisjointSharesAtTheSameSizes) {
  auto spec = v4_spec();
  spec.first_bs = 6;
  const size_t n = 101;
  std::set<size_t> all;
  std::vector<std::vector<BatchPlan>> plans;
  for (int r = 0; r < 3; ++r) plans.push_back(make_multi_scale_sampler(spec, 7, r, 3)->epoch_batches(n, 2, 1, true));
  for (int r = 0; r < 3; ++r) {
    ASSERT_EQ(plans[r].size(), plans[0].size());
    std::set<size_t> mine;
    for (size_t k = 0; k < plans[r].size(); ++k) {
      EXPECT_EQ(plans[r][k].height, plans[0][k].height) << "rank " << r << " step " << k;
      mine.insert(plans[r][k].indices.begin(), plans[r][k].indices.end());
    }
    EXPECT_EQ(mine.size(), n / 3);  // 33 each; the 101st sample waits for another epoch's shuffle
    for (size_t i : mine) EXPECT_TRUE(all.insert(i).second) << "index " << i << " on two ranks";
  }
}

TEST(MultiScaleSampler, ReshufflesEachEpochAndReplaysAnEpoch) {
  const auto spec = v4_spec();
  auto a = make_multi_scale_sampler(spec, 7, 0, 1), b = make_multi_scale_sampler(spec, 7, 0, 1);
  EXPECT_EQ(a->epoch_indices(1000, 3), b->epoch_indices(1000, 3));  // a resumed run sees epoch 3 again
  EXPECT_NE(a->epoch_indices(1000, 3), a->epoch_indices(1000, 4));
  EXPECT_NE(a->epoch_indices(1000, 3), make_multi_scale_sampler(spec, 8, 0, 1)->epoch_indices(1000, 3));
}

TEST(MultiScaleSampler, EvaluationModeReadsInOrderAtTheFirstScale) {
  auto spec = v4_spec();
  spec.is_training = false;
  spec.first_bs = 4;
  const auto plan = make_multi_scale_sampler(spec, 7, 0, 1)->epoch_batches(10, 0, 1, true);
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].indices, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(plan[2].indices, (std::vector<size_t>{8, 9, 0, 1}));  // topped up to its batch size
  EXPECT_EQ(plan[2].height, 32);
}

TEST(MultiScaleSampler, MistakesNameTheKey) {
  const auto error_of = [](const std::string& yaml) {
    try {
      multi_scale_sampler_from_yaml(YAML::Load(yaml), "Train.sampler");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("{name: BatchSampler, scales: [[320, 32]]}").find("Train.sampler.name"), std::string::npos);
  EXPECT_NE(error_of("{name: MultiScaleSampler}").find("Train.sampler.scales' is required"), std::string::npos);
  EXPECT_NE(error_of("{name: MultiScaleSampler, scales: [[320]]}").find("Train.sampler.scales[0]"), std::string::npos);
  EXPECT_NE(error_of("{name: MultiScaleSampler, scales: [[320, 32]], first_bs: 0}").find("Train.sampler.first_bs"),
            std::string::npos);
  EXPECT_NE(error_of("{name: MultiScaleSampler, scales: [[320, 32]], divided_factor: 8}").find("divided_factor"),
            std::string::npos);
  EXPECT_THROW(make_multi_scale_sampler(v4_spec(), 1, 3, 3), Error);
  EXPECT_THROW(make_multi_scale_sampler(v4_spec(), 1, 0, 4)->epoch_batches(3, 0, 1, true), Error);  // fewer samples than ranks
}

}  // namespace
}  // namespace ocrforge
