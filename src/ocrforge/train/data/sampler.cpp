// Sequential and shuffling samplers (sampler.h).
#include "ocrforge/train/data/sampler.h"

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

std::shared_ptr<Sampler> make_sequential_sampler() { return std::make_shared<SequentialSampler>(); }
std::shared_ptr<Sampler> make_shuffle_sampler(uint64_t seed) { return std::make_shared<ShuffleSampler>(seed); }

}  // namespace ocrforge
