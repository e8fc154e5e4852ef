// Seeded train / eval split of label lines (label_split.h).
#include "ocrforge/core/label_split.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "ocrforge/core/error.h"

namespace ocrforge {

LabelSplit split_label_lines(const std::vector<std::string>& lines, double ratio, uint64_t seed) {
  if (!(ratio > 0.0 && ratio < 1.0))
    throw UsageError("--ratio must be between 0 and 1 (the train share, e.g. 0.9), got " + std::to_string(ratio));
  const size_t n = lines.size();
  if (n < 2) throw UsageError("a split needs at least 2 label lines, got " + std::to_string(n));
  const auto rounded = static_cast<size_t>(std::llround(static_cast<double>(n) * ratio));
  const size_t n_train = std::clamp<size_t>(rounded, 1, n - 1);

  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  for (size_t i = n - 1; i > 0; --i) {  // std::shuffle's algorithm is unspecified; this one is fixed
    const size_t j = static_cast<size_t>(rng() % (i + 1));
    std::swap(order[i], order[j]);
  }
  std::vector<bool> to_train(n, false);
  for (size_t k = 0; k < n_train; ++k) to_train[order[k]] = true;
  LabelSplit out;
  for (size_t i = 0; i < n; ++i) (to_train[i] ? out.train : out.eval).push_back(lines[i]);
  return out;
}

}  // namespace ocrforge
