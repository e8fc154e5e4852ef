// Recognition decoding for training-time metrics and evaluation: softmax +
// the same greedy CTC decoder the inference pipeline uses.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/vision/ctc_decode.h"

namespace ocrforge {

// Texts of a batch of logits (N,T,C): softmax + ctc_greedy_decode.
std::vector<std::string> decode_logits(const torch::Tensor& logits, const Charset& charset);
// The same, with each text's score (RecText::score).
std::vector<RecText> decode_logit_texts(const torch::Tensor& logits, const Charset& charset);

}  // namespace ocrforge
