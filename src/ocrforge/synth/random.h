// Per-sample random numbers. Each sample's generator is seeded from
// (seed, sample index) only, never from a shared stream, so a sample is the
// same whichever worker draws it and however many workers there are.
// cv::RNG is used (not <random> distributions) because OpenCV's noise fill
// needs it and its sequences are fixed by OpenCV, not by the C++ library.
#pragma once
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/synth/params.h"

namespace ocrforge {

// SplitMix64 finaliser: decorrelates neighbouring indices.
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class SampleRng {
 public:
  // `stream` separates independent uses of the same index (e.g. text vs layout).
  SampleRng(uint64_t seed, uint64_t index, uint64_t stream = 0)
      : rng_(mix64(mix64(seed ^ (stream * 0x632be59bd9b4e019ULL)) + index) | 1ULL) {}

  double uniform(double lo, double hi) { return lo + (hi - lo) * rng_.uniform(0.0, 1.0); }
  double uniform(const Range& r) { return uniform(r.lo, r.hi); }
  // Integer in [lo, hi] (both included).
  int uniform_int(int lo, int hi) { return hi <= lo ? lo : rng_.uniform(lo, hi + 1); }
  int uniform_int(const Range& r) {
    return uniform_int(static_cast<int>(r.lo + 0.5), static_cast<int>(r.hi + 0.5));
  }
  bool chance(double p) { return p > 0 && rng_.uniform(0.0, 1.0) < p; }
  size_t index(size_t n) { return n <= 1 ? 0 : static_cast<size_t>(rng_.uniform(0, static_cast<int>(n))); }
  // Index drawn with the given non-negative weights (all zero -> 0).
  size_t weighted(const std::vector<double>& w) {
    double total = 0;
    for (double x : w) total += x > 0 ? x : 0;
    if (total <= 0) return 0;
    double r = uniform(0.0, total);
    size_t last = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] <= 0) continue;
      if (r < w[i]) return i;
      r -= w[i];
      last = i;
    }
    return last;  // only reached through rounding
  }
  cv::RNG& cv_rng() { return rng_; }

 private:
  cv::RNG rng_;
};

}  // namespace ocrforge
