// Which dataset indices an epoch visits, in which order. The loader asks the
// sampler once per epoch; a distributed sampler (shard, pad, reshuffle per
// epoch) plugs in behind the same interface.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ocrforge {

class Sampler {
 public:
  virtual ~Sampler() = default;
  // The indices (each < dataset_size) of epoch `epoch`, in visiting order.
  // Must depend only on (dataset_size, epoch) and the sampler's construction
  // arguments, so an epoch can be replayed after a resume.
  virtual std::vector<size_t> epoch_indices(size_t dataset_size, int epoch) = 0;
};

// 0, 1, ..., n-1 every epoch (evaluation).
std::shared_ptr<Sampler> make_sequential_sampler();
// A permutation drawn from (seed, epoch) only (training).
std::shared_ptr<Sampler> make_shuffle_sampler(uint64_t seed);

}  // namespace ocrforge
