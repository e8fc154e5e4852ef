// Random numbers of the data pipeline. Every random stream is seeded from the
// values that identify its use (seed, epoch, sample index, ...) and never
// from a shared generator, so a sample is identical whichever worker thread
// loads it and however many workers there are. cv::RNG is used because its
// sequence is fixed by OpenCV, not by the C++ standard library's
// implementation-defined distributions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include <opencv2/core.hpp>

namespace ocrforge {

// SplitMix64-style combination of the parts that name one random stream.
inline uint64_t data_seed(std::initializer_list<uint64_t> parts) {
  uint64_t h = 0x243f6a8885a308d3ULL;  // arbitrary non-zero start
  for (uint64_t p : parts) {
    uint64_t x = h ^ (p + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    h = x ^ (x >> 31);
  }
  return h;
}

class DataRng {
 public:
  explicit DataRng(uint64_t seed) : rng_(seed == 0 ? 1 : seed) {}

  // Uniform in [0, 1). `uniform() < p` is never true for p = 0, always for p = 1.
  double uniform() { return rng_.uniform(0.0, 1.0); }
  // Uniform integer in [lo, hi], both included (Python's random.randint).
  int randint(int lo, int hi) { return hi <= lo ? lo : rng_.uniform(lo, hi + 1); }
  // Uniform integer in [0, n) (numpy's randint(n)); 0 when n <= 0.
  int below(int n) { return n <= 0 ? 0 : rng_.uniform(0, n); }
  // Uniform index in [0, n) for container sizes.
  size_t index(size_t n) {
    if (n <= 1) return 0;
    const uint64_t hi = static_cast<uint32_t>(rng_.next()), lo = static_cast<uint32_t>(rng_.next());
    return static_cast<size_t>(((hi << 32) | lo) % n);
  }
  bool chance(double p) { return uniform() < p; }
  cv::RNG& cv() { return rng_; }

 private:
  cv::RNG rng_;
};

}  // namespace ocrforge
