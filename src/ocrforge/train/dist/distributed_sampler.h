// PaddleOCR's DistributedBatchSampler behind the Sampler interface: each rank
// gets an equal share of every epoch, so all ranks run the same number of
// steps (a rank with one step more would wait forever in its all-reduce).
//
// Epoch order: the global order is what the single-process sampler would
// give (shuffle: the (seed, epoch) permutation of make_shuffle_sampler;
// else 0..n-1), padded by repeating its head up to a multiple of world_size.
// Rank r then takes batch_size-sized chunks r, r + W, r + 2W, ... and its
// share of the remainder, exactly as Paddle's _get_indices_by_batch_size.
// Consequence (used by the equivalence test): at step k the union of the
// ranks' batches is the single process's batch k at batch_size * W, whenever
// n is a multiple of world_size (no padding).
//
// (Paddle pads before shuffling; we shuffle first so the unpadded order is
// the single-process order. Both give each sample once per epoch plus at
// most W - 1 repeats.)
#pragma once
#include <cstdint>
#include <memory>

#include "ocrforge/train/data/sampler.h"

namespace ocrforge {

// Throws Error unless 0 <= rank < world_size and batch_size >= 1.
std::shared_ptr<Sampler> make_distributed_sampler(bool shuffle, uint64_t seed, int rank, int world_size,
                                                  int batch_size);

// The sampler every task's loader uses: a training loader of a multi-process
// run (world_size > 1) reads its rank's shard (make_distributed_sampler);
// otherwise null, i.e. BatchLoader's own shuffle / sequential sampler.
// Evaluation reads everything on every rank.
std::shared_ptr<Sampler> task_sampler(bool training, bool shuffle, uint64_t seed, int rank, int world_size,
                                      int batch_size);

}  // namespace ocrforge
