// Dictionary-aware CTC decoding (PaddleOCR has none): after greedy decoding,
// each word the word list does not accept is compared, under the model's own
// per-step probabilities, with the listed words one edit away from it (and
// with its own spellings in other case), and a run of digits holding a
// letter that looks like a digit ("l944", "19O2") with the all-digit
// reading. A replacement must be nearly as likely to the model as what it
// read: it wins when
//     log P(replacement | its steps) + weight > log P(greedy word | its steps),
// P being CTC's sum over alignments within the steps between the word's
// neighbours. So a confident read stays as it is (a name the list lacks, a
// code), while "whioh", whose fourth letter the model almost read as "c",
// becomes "which". Words the list accepts are never changed (telling "or"
// from "of" needs a language model, not a word list), nor is a word read in
// lower case put into other case only ("com" stays, though the list has "Com").
#pragma once
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/vision/ctc_decode.h"
#include "ocrforge/vision/lexicon.h"

namespace ocrforge {

struct LexiconDecodeOptions {
  // Nats of log-probability that being in the list (or all digits) is
  // worth; 0 changes nothing that greedy decoding got more likely.
  float weight = 3.f;
  int min_letters = 3;  // shorter words are left alone, and never made
  // Words in capitals shorter than this are left alone too: abbreviations
  // and codes ("SDN", "GST", "QTY" on receipts) that word lists lack.
  int min_capitals = 4;
  // line_case_correct: nats the line's own case is worth, and how many
  // letters the rest of the line needs before its case counts.
  float case_weight = 2.f;
  int min_case_letters = 8;
};

// Rewrites the words of `r` (ctc_greedy_decode of the same `probs`, T x C)
// as above, with their symbols re-aligned (for word boxes); r.score stays
// the greedy reading's (the model's confidence, which drop_score compares).
// Returns how many words changed.
int lexicon_correct(const float* probs, int steps, int classes, const Charset& charset, const Lexicon& lexicon,
                    const LexiconDecodeOptions& options, RecText& r);

// Letter case by the line: in a line whose other letters are two thirds or
// more in lower case, a word of 2+ letters in capitals or mixed case is
// compared with its lower-case and capitalised spellings; in a line mostly in
// capitals, with its capitals. A spelling the model finds nearly as likely
// (within options.case_weight) wins: "THE", "Source", "NoVEmbEr" in running
// text become "the", "source", "November" where the model could hardly tell
// the cases apart (c o s u v w x z differ in size only), while a capital it is
// sure of ("The", "GPL") stays. Digits and words with them are left alone.
// Returns how many words changed.
int line_case_correct(const float* probs, int steps, int classes, const Charset& charset,
                      const LexiconDecodeOptions& options, RecText& r);

// log P(labels | steps t0..t1) under CTC (blank 0): the sum over every
// alignment. -infinity when no alignment fits (too many labels for the steps).
double ctc_log_likelihood(const float* probs, int classes, int t0, int t1, const std::vector<int>& labels);

}  // namespace ocrforge
