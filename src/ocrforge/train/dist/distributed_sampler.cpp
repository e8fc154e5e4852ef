// distributed_sampler.h: shard, pad, reshuffle per epoch.
#include "ocrforge/train/dist/distributed_sampler.h"

#include <algorithm>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

class DistributedSampler final : public Sampler {
 public:
  DistributedSampler(bool shuffle, uint64_t seed, int rank, int world, int batch)
      : base_(shuffle ? make_shuffle_sampler(seed) : make_sequential_sampler()),
        rank_(static_cast<size_t>(rank)),
        world_(static_cast<size_t>(world)),
        batch_(static_cast<size_t>(batch)) {}

  std::vector<size_t> epoch_indices(size_t n, int epoch) override {
    if (n == 0) return {};
    std::vector<size_t> order = base_->epoch_indices(n, epoch);
    const size_t total = (n + world_ - 1) / world_ * world_;
    for (size_t i = 0; order.size() < total; ++i) order.push_back(order[i % n]);  // pad with the head

    // Whole rounds of W batches: rank r takes the r-th batch of each round.
    const size_t round = batch_ * world_;
    const size_t rest = total % round;  // a multiple of W, split evenly
    std::vector<size_t> mine;
    mine.reserve(total / world_);
    for (size_t start = rank_ * batch_; start + batch_ <= total - rest; start += round)
      mine.insert(mine.end(), order.begin() + static_cast<long>(start),
                  order.begin() + static_cast<long>(start + batch_));
    const size_t share = rest / world_, tail = total - rest + rank_ * share;
    mine.insert(mine.end(), order.begin() + static_cast<long>(tail), order.begin() + static_cast<long>(tail + share));
    return mine;
  }

 private:
  std::shared_ptr<Sampler> base_;
  size_t rank_, world_, batch_;
};

}  // namespace

std::shared_ptr<Sampler> make_distributed_sampler(bool shuffle, uint64_t seed, int rank, int world_size,
                                                  int batch_size) {
  if (world_size < 1 || rank < 0 || rank >= world_size)
    throw Error("distributed sampler: rank " + std::to_string(rank) + " is outside 0.." +
                std::to_string(world_size - 1));
  if (batch_size < 1) throw Error("distributed sampler: batch_size_per_card must be at least 1");
  return std::make_shared<DistributedSampler>(shuffle, seed, rank, world_size, batch_size);
}

std::shared_ptr<Sampler> task_sampler(bool training, bool shuffle, uint64_t seed, int rank, int world_size,
                                      int batch_size) {
  if (!training || world_size <= 1) return nullptr;
  return make_distributed_sampler(shuffle, seed, rank, world_size, batch_size);
}

}  // namespace ocrforge
