// The task-free data interface of the training loop: a Dataset turns an
// index into a Sample (named tensors, as PaddleOCR's KeepKeys leaves them),
// a Collate function turns samples into a Batch, and BatchLoader
// (batch_loader.h) runs both on worker threads. Recognition, detection and
// classification tasks each provide a Dataset and a Collate; the loader and the
// trainer never look inside.
#pragma once
#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/train/data/data_stats.h"

namespace ocrforge {

using TensorMap = std::map<std::string, torch::Tensor>;

// One transformed sample. Tensors have no batch dimension (image: C x H x W).
struct Sample {
  TensorMap tensors;
  std::string text;  // label text, when the task has one (rec)
  std::string path;  // image path (joined to data_dir)
  std::any extra;    // task-specific ground truth the metric needs (det: polygons)
};

// A batch: tensors stacked along a new first dimension N (CPU), plus the
// per-sample texts, paths and extras in batch order.
struct Batch {
  TensorMap tensors;
  std::vector<std::string> texts, paths;
  std::vector<std::any> extras;
  size_t size() const { return paths.size(); }
  // The tensor called `name`; Error naming it when the batch has none.
  const torch::Tensor& at(const std::string& name) const;
};

class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual size_t size() const = 0;
  // Loads sample `index` with every random draw taken from `rng_seed` (so a
  // sample is the same on any worker thread); adds what was dropped or
  // replaced to *stats. Must be thread-safe.
  virtual Sample load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const = 0;
  // load_sample made at height x width instead of the dataset's own size (a
  // multi-scale batch, sampler.h's BatchPlan). The default throws Error: the
  // dataset has one input size.
  virtual Sample load_sample_sized(size_t index, uint64_t rng_seed, DataStats* stats, int height, int width) const;
};

// Samples of one batch (moved from) -> the batch.
using Collate = std::function<Batch(std::vector<Sample>& samples)>;

// torch::stack of every named tensor (all samples must have the same names
// and shapes: Error naming the tensor and the two paths otherwise); texts,
// paths and extras copied in order.
Batch stack_collate(std::vector<Sample>& samples);

}  // namespace ocrforge
