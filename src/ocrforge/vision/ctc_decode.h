// Greedy CTC decoding (PaddleOCR's CTCLabelDecode).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"

namespace ocrforge {

struct RecText {
  std::string text;
  float score = 0.f;  // mean probability of the kept steps; 0 when nothing is kept
};

// `probs`: T x C row-major class probabilities (softmax already applied) of
// one sequence. Argmax per step, repeats merged, blank (0) dropped. Throws
// Error when C != charset.num_classes().
RecText ctc_greedy_decode(const float* probs, int steps, int classes, const Charset& charset);

}  // namespace ocrforge
