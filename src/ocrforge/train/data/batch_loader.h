// Batches of any task's samples, loaded by worker threads ahead of the
// trainer (PaddleOCR's DataLoader with batch_size_per_card / shuffle /
// drop_last / num_workers).
//
// Determinism: an epoch's order depends only on the sampler (by default
// (seed, epoch)); sample i's random draws only on (seed, epoch, i); workers
// fill batch slots by batch index and next() hands them out in order. The
// batches are therefore identical for any num_workers, and epoch e after a
// resume equals epoch e of an uninterrupted run.
#pragma once
#include <cstdint>
#include <memory>

#include "ocrforge/train/data/data_stats.h"
#include "ocrforge/train/data/dataset.h"
#include "ocrforge/train/data/sampler.h"

namespace ocrforge {

struct LoaderSpec {
  int batch_size = 16;          // batch_size_per_card
  bool shuffle = true;          // default sampler: shuffle (seed, epoch) or sequential
  bool drop_last = true;        // drop the last, incomplete batch
  int num_workers = 0;          // 0: load in the calling thread
  int prefetch_per_worker = 2;  // batches each worker may hold ready ahead of next()
};

class BatchLoader {
 public:
  // `sampler` null: make_shuffle_sampler(seed) when spec.shuffle, else
  // make_sequential_sampler(). `collate` null: stack_collate. Throws Error
  // for a null dataset, batch_size < 1 or num_workers < 0.
  BatchLoader(std::shared_ptr<const Dataset> dataset, LoaderSpec spec, uint64_t seed,
              std::shared_ptr<Sampler> sampler = nullptr, Collate collate = nullptr);
  ~BatchLoader();  // stops and joins the workers
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // Stops the current epoch's workers (discarding prefetched batches) and
  // starts `epoch`'s order from its first batch.
  void start_epoch(int epoch);
  // The next batch of the epoch; false at its end (until start_epoch). A
  // first call without start_epoch starts epoch 0. Rethrows a worker's Error
  // when its batch is due (batches before it still come out).
  bool next(Batch* batch);
  // Batches of the started epoch (epoch 0's when none was started).
  size_t batches_per_epoch() const;
  // Cumulative counts over the batches handed out by next() (prefetched,
  // discarded batches do not count), so they too are independent of num_workers.
  DataStats stats() const;
  // Milliseconds next() spent waiting for (or, with 0 workers, loading)
  // data since the last reset_reader_wait(): PaddleOCR's reader cost.
  double reader_wait_ms() const;
  void reset_reader_wait();

  const Dataset& dataset() const { return *dataset_; }
  const LoaderSpec& spec() const { return spec_; }

 private:
  struct Impl;
  std::shared_ptr<const Dataset> dataset_;
  LoaderSpec spec_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ocrforge
