// Recognition evaluation: greedy CTC decoding (the same ctc_greedy_decode
// the inference pipeline uses) + RecMetric over a loader.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"

namespace ocrforge {

class RecDataLoader;

struct RecEvalResult {
  double acc = 0, norm_edit_dis = 0;
  long samples = 0;
  double seconds = 0;
};

// Texts of a batch of logits (N,T,C): softmax + ctc_greedy_decode.
std::vector<std::string> decode_logits(const torch::Tensor& logits, const Charset& charset);

// Runs `forward` (images N,3,H,W -> logits N,T,C) in no-grad mode over one
// epoch of `loader`; `progress(done, total)` is called after each batch.
RecEvalResult evaluate_rec(const std::function<torch::Tensor(const torch::Tensor&)>& forward, RecDataLoader& loader,
                           const Charset& charset, bool ignore_space,
                           const std::function<void(size_t, size_t)>& progress = nullptr);

}  // namespace ocrforge
