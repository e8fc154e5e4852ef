// The distributed sampler: equal shards, padding, per-epoch reshuffle, and
// the property the equivalence test relies on (per step, the ranks' batches
// together are the single process's batch at batch_size * world_size).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/sampler.h"
#include "ocrforge/train/dist/distributed_sampler.h"

namespace ocrforge {
namespace {

std::vector<std::vector<size_t>> shards(size_t n, int world, int batch, int epoch, bool shuffle = true) {
  std::vector<std::vector<size_t>> out;
  for (int r = 0; r < world; ++r)
    out.push_back(make_distributed_sampler(shuffle, 42, r, world, batch)->epoch_indices(n, epoch));
  return out;
}

TEST(DistributedSampler, ShardsHaveEqualLengthAndCoverEverySample) {
  for (size_t n : {1u, 7u, 16u, 23u, 100u})
    for (int world : {2, 3, 4}) {
      const auto s = shards(n, world, 4, 0);
      std::set<size_t> seen;
      for (const auto& shard : s) {
        EXPECT_EQ(shard.size(), (n + world - 1) / world) << "n=" << n << " world=" << world;
        seen.insert(shard.begin(), shard.end());
      }
      EXPECT_EQ(seen.size(), n);  // padding repeats samples, never drops one
    }
}

TEST(DistributedSampler, UnionPerStepIsTheSingleProcessBatch) {
  const size_t n = 48;
  const int world = 2, batch = 4;
  const auto s = shards(n, world, batch, 3);
  const auto single = make_shuffle_sampler(42)->epoch_indices(n, 3);
  for (size_t step = 0; step * batch * world < n; ++step) {
    std::vector<size_t> both;
    for (const auto& shard : s)
      both.insert(both.end(), shard.begin() + step * batch, shard.begin() + (step + 1) * batch);
    const std::vector<size_t> expected(single.begin() + step * batch * world,
                                       single.begin() + (step + 1) * batch * world);
    EXPECT_EQ(both, expected) << "step " << step;
  }
}

TEST(DistributedSampler, RemainderIsSplitEvenlyAsPaddleDoes) {
  // 10 samples, 2 ranks, batch 4: one round of 8, then 2 left -> one each.
  const auto s = shards(10, 2, 4, 0, /*shuffle=*/false);
  EXPECT_EQ(s[0], (std::vector<size_t>{0, 1, 2, 3, 8}));
  EXPECT_EQ(s[1], (std::vector<size_t>{4, 5, 6, 7, 9}));
  // 7 samples, 2 ranks: padded with sample 0 to 8.
  const auto p = shards(7, 2, 4, 0, false);
  EXPECT_EQ(p[0], (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(p[1], (std::vector<size_t>{4, 5, 6, 0}));
}

TEST(DistributedSampler, ReshufflesPerEpochAndReplaysAnEpoch) {
  auto a = make_distributed_sampler(true, 42, 1, 2, 4);
  auto b = make_distributed_sampler(true, 42, 1, 2, 4);
  EXPECT_NE(a->epoch_indices(64, 1), a->epoch_indices(64, 2));
  EXPECT_EQ(a->epoch_indices(64, 2), b->epoch_indices(64, 2));  // (seed, epoch) only: a resume replays it
  EXPECT_NE(a->epoch_indices(64, 2), make_distributed_sampler(true, 43, 1, 2, 4)->epoch_indices(64, 2));
}

TEST(DistributedSampler, RejectsBadArguments) {
  EXPECT_THROW(make_distributed_sampler(true, 1, 2, 2, 4), Error);
  EXPECT_THROW(make_distributed_sampler(true, 1, -1, 2, 4), Error);
  EXPECT_THROW(make_distributed_sampler(true, 1, 0, 2, 0), Error);
  EXPECT_TRUE(make_distributed_sampler(true, 1, 0, 2, 4)->epoch_indices(0, 0).empty());
}

}  // namespace
}  // namespace ocrforge
