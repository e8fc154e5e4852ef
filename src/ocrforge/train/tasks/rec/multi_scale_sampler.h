// PaddleOCR's MultiScaleSampler (Train.sampler of the PP-OCRv4/v5 rec
// configs): batches of several input sizes, each with its own batch size, so
// the network sees text lines at heights 32, 48 and 64 in one run.
//
// Batch sizes: scale k (width w, height h, each rounded down to a multiple of
// divided_factor) gets first_bs with fix_bs, otherwise
// max(1, int(w0 * h0 * first_bs / (w * h))) with (w0, h0) the first scale as
// written (PaddleOCR's rule: [[320,32],[320,48],[320,64]] with first_bs 192
// gives 192, 128, 96).
//
// Epoch plan (is_training): a permutation of the data set from (seed, epoch);
// rank r of W takes every W-th index from r, n / W of them (the same count on
// every rank); batches take the scales in turn until the share is covered, the
// last one topped up from the share's start so it has its scale's size; then
// the batch order is shuffled from (seed, epoch) alone, so every rank runs the
// same number of steps at the same size. Without is_training: one scale (the
// first, not rounded) at first_bs, indices in order.
//
// Two choices differ from PaddleOCR and are documented in docs/config.md:
// the samples are reshuffled every epoch (PaddleOCR with Global.seed set
// repeats epoch 1's batches every epoch), and no batch is made of repeats
// alone (PaddleOCR completes the last round of scales with such batches).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/data/sampler.h"

namespace ocrforge {

struct MultiScaleSamplerSpec {
  struct Scale {
    int width = 0, height = 0;
  };
  std::vector<Scale> scales;  // as written: [width, height]
  int first_bs = 128;
  bool fix_bs = true;
  int divided_width = 8, divided_height = 16;
  bool is_training = true;
};

// One scale of the epoch plan: input size and batch size.
struct ScaleBatch {
  int width = 0, height = 0, batch_size = 0;
};

// `node` is `<Section>.sampler` (path its key path): name MultiScaleSampler,
// scales (list of [w, h], or of ints meaning square sizes, as PaddleOCR),
// first_bs, fix_bs, divided_factor [w, h], is_training; ratio_wh and max_w
// are read and unused (they act only with ds_width, which is refused).
// UsageError naming the key for anything else.
MultiScaleSamplerSpec multi_scale_sampler_from_yaml(const YAML::Node& node, const std::string& path);

// The scales the plan draws from, with their batch sizes (see above).
std::vector<ScaleBatch> multi_scale_batches(const MultiScaleSamplerSpec& spec);

// Throws Error unless 0 <= rank < world_size and the spec has a scale.
std::shared_ptr<Sampler> make_multi_scale_sampler(const MultiScaleSamplerSpec& spec, uint64_t seed, int rank,
                                                  int world_size);

}  // namespace ocrforge
