// Batches of recognition samples as typed RecTrainBatch: a thin view over the
// task-free BatchLoader (batch_loader.h, which has the threading and
// determinism rules) for code that wants named fields instead of a TensorMap.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/data/data_stats.h"
#include "ocrforge/train/tasks/rec/rec_dataset.h"
#include "ocrforge/train/data/sampler.h"

namespace ocrforge {

struct RecTrainBatch {
  torch::Tensor images;        // N x 3 x H x W float32 in [-1, 1], zero-padded on the right (CPU)
  torch::Tensor labels;        // N x max_text_length int64, class indices, 0-padded (MultiLabelEncode: label_ctc)
  torch::Tensor lengths;       // N int64, real label lengths
  torch::Tensor valid_ratios;  // N float32, resized width / W (RecResizeImg's valid_ratio)
  std::vector<std::string> texts, paths;  // label text (without dropped characters), image path
};

// The named tensors of a recognition Batch (RecDataset::load_sample's names)
// as a RecTrainBatch; Error when one is missing.
RecTrainBatch to_rec_batch(Batch&& batch);


class RecDataLoader {
 public:
  // `sampler` null: make_shuffle_sampler(seed) when spec.shuffle, else
  // make_sequential_sampler(). Throws Error for a null dataset or batch_size < 1.
  RecDataLoader(std::shared_ptr<RecDataset> dataset, LoaderSpec spec, uint64_t seed,
                std::shared_ptr<Sampler> sampler = nullptr);
  ~RecDataLoader();  // stops and joins the workers
  RecDataLoader(const RecDataLoader&) = delete;
  RecDataLoader& operator=(const RecDataLoader&) = delete;

  // Stops the current epoch's workers (discarding prefetched batches) and
  // starts `epoch`'s order from its first batch.
  void start_epoch(int epoch);
  // The next batch of the epoch; false at its end (until start_epoch). A
  // first call without start_epoch starts epoch 0. Rethrows a worker's Error.
  bool next(RecTrainBatch* batch);
  // Batches of the started epoch (epoch 0's when none was started).
  size_t batches_per_epoch() const;
  // Cumulative counts over the batches handed out by next() (prefetched,
  // discarded batches do not count), so they too are independent of num_workers.
  DataStats stats() const;
  // Milliseconds next() spent waiting for (or, with 0 workers, loading)
  // data since the last reset_reader_wait(): PaddleOCR's reader cost.
  double reader_wait_ms() const;
  void reset_reader_wait();

  const RecDataset& dataset() const { return *dataset_; }
  const LoaderSpec& spec() const { return loader_.spec(); }
  BatchLoader& batches() { return loader_; }

 private:
  std::shared_ptr<RecDataset> dataset_;
  BatchLoader loader_;
};

}  // namespace ocrforge
