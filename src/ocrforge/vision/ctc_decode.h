// Greedy CTC decoding (PaddleOCR's CTCLabelDecode).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"

namespace ocrforge {

// One decoded character and where the model put it: the run of time steps
// whose argmax was this class (repeats merged). Word boxes are cut from these
// positions (word_boxes.h), as PaddleOCR's return_word_box does.
struct CtcSymbol {
  int first_step = 0, last_step = 0;  // inclusive, in [0, steps)
  float prob = 0.f;                   // probability at first_step (the one the score averages)
  int offset = 0, length = 0;         // its UTF-8 bytes in RecText::text
};

struct RecText {
  std::string text;
  float score = 0.f;  // mean probability of the kept steps; 0 when nothing is kept
  std::vector<CtcSymbol> symbols;  // one per decoded character, in text order
  int steps = 0;                   // time steps of the model output (T)
  // Share of the model input's width that the crop covers (the rest is
  // padding): step t spans [t / steps, (t + 1) / steps] / content_ratio of the
  // crop's width. Set by the recogniser; 1 when the input was not padded.
  float content_ratio = 1.f;
};

// `probs`: T x C row-major class probabilities (softmax already applied) of
// one sequence. Argmax per step, repeats merged, blank (0) dropped. Throws
// Error when C != charset.num_classes().
RecText ctc_greedy_decode(const float* probs, int steps, int classes, const Charset& charset);

}  // namespace ocrforge
