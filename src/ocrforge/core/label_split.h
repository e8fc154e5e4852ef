// Splitting a label file into train and eval parts (`ocrforge data split`):
// a seeded shuffle decides which lines go where; each part keeps the file's
// line order, so the two files are easy to diff against the source.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

struct LabelSplit {
  std::vector<std::string> train, eval;
};

// round(lines * ratio) lines (halves away from zero; at least 1 and at most
// lines - 1) go to train, the rest to eval. The choice depends only on
// (lines.size(), ratio, seed): a 64-bit Mersenne Twister drives a Fisher-Yates
// shuffle written here, so the same call splits the same way on every platform
// and standard library.
// Throws UsageError when ratio is not in (0, 1) or there are fewer than 2 lines.
LabelSplit split_label_lines(const std::vector<std::string>& lines, double ratio, uint64_t seed);

}  // namespace ocrforge
