// Sequential and shuffling samplers (sampler.h).
#include "ocrforge/train/data/sampler.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>

#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

namespace {

class SequentialSampler : public Sampler {
 public:
  std::vector<size_t> epoch_indices(size_t n, int) override {
    std::vector<size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    return idx;
  }
};

class ShuffleSampler : public Sampler {
 public:
  explicit ShuffleSampler(uint64_t seed) : seed_(seed) {}
  std::vector<size_t> epoch_indices(size_t n, int epoch) override {
    std::vector<size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    // A fresh generator per epoch: epoch e's order never depends on how many
    // epochs ran before it in this process (resume replays it exactly).
    DataRng rng(data_seed({seed_, 0x73687566ULL /* "shuf" */, static_cast<uint64_t>(epoch)}));
    for (size_t i = n; i > 1; --i) std::swap(idx[i - 1], idx[rng.index(i)]);
    return idx;
  }

 private:
  uint64_t seed_;
};

}  // namespace

std::vector<BatchPlan> Sampler::epoch_batches(size_t dataset_size, int epoch, size_t batch_size, bool drop_last) {
  const std::vector<size_t> order = epoch_indices(dataset_size, epoch);
  std::vector<BatchPlan> plan;
  for (size_t begin = 0; begin < order.size(); begin += batch_size) {
    const size_t end = std::min(order.size(), begin + batch_size);
    if (drop_last && end - begin < batch_size) break;
    BatchPlan b;
    b.indices.assign(order.begin() + static_cast<std::ptrdiff_t>(begin), order.begin() + static_cast<std::ptrdiff_t>(end));
    plan.push_back(std::move(b));
  }
  return plan;
}

std::shared_ptr<Sampler> make_sequential_sampler() { return std::make_shared<SequentialSampler>(); }
std::shared_ptr<Sampler> make_shuffle_sampler(uint64_t seed) { return std::make_shared<ShuffleSampler>(seed); }

}  // namespace ocrforge
