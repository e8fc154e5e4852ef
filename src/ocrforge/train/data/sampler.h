// Which dataset indices an epoch visits, in which order, and in which
// batches. The loader asks the sampler once per epoch; a distributed sampler
// (shard, pad, reshuffle per epoch) and a multi-scale one (batches of
// several input sizes and sizes) plug in behind the same interface.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ocrforge {

// One batch of an epoch: its dataset indices and the input size its samples
// are made at (height x width; 0 x 0: the dataset's own size).
struct BatchPlan {
  std::vector<size_t> indices;
  int height = 0;
  int width = 0;
};

class Sampler {
 public:
  virtual ~Sampler() = default;
  // The epoch's batches. The default cuts epoch_indices into `batch_size`
  // pieces at the dataset's own size, the last one dropped when incomplete
  // and `drop_last`. Same replay rule as epoch_indices.
  virtual std::vector<BatchPlan> epoch_batches(size_t dataset_size, int epoch, size_t batch_size, bool drop_last);
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
