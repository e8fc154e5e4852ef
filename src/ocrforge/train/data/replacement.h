// Which sample a load attempt reads, shared by every SimpleDataSet-style
// dataset (rec, det, cls): attempt 0 is the requested sample with the
// request's seed; a later attempt replaces a sample that failed to load,
// deterministically from the request (never from shared state), so a sample
// is the same on any worker thread and after a resume.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

struct LoadAttempt {
  uint64_t seed;  // the random draws of this attempt
  size_t index;   // the sample it loads
};

// `previous`: the index the previous attempt loaded. `random`: training
// replaces with a random sample; evaluation with the next one (PaddleOCR's
// eval mode).
inline LoadAttempt load_attempt(uint64_t rng_seed, int attempt, size_t previous, size_t size, bool random) {
  if (attempt == 0) return {rng_seed, previous};
  const uint64_t seed = data_seed({rng_seed, static_cast<uint64_t>(attempt)});
  const size_t index =
      random ? DataRng(data_seed({seed, 0x7265706cULL /* "repl" */})).index(size) : (previous + 1) % size;
  return {seed, index};
}

}  // namespace ocrforge
