// PaddleOCR's RecMetric: exact-match accuracy and normalised edit distance,
// counted over UTF-8 code points (Python str characters).
#include "ocrforge/vision/rec_metric.h"

#include <algorithm>

#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

std::string without_spaces(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (c != ' ') out.push_back(c);
  return out;
}

}  // namespace

bool RecMetric::add(const std::string& pred_in, const std::string& label_in) {
  const std::string pred = ignore_space_ ? without_spaces(pred_in) : pred_in;
  const std::string label = ignore_space_ ? without_spaces(label_in) : label_in;
  const auto p = utf8_chars(pred);
  const auto l = utf8_chars(label);
  // Levenshtein.normalized_distance: distance / longer length (0 for two empties).
  const size_t longest = std::max<size_t>({p.size(), l.size(), 1});
  norm_edit_sum_ += static_cast<double>(edit_distance(p, l)) / static_cast<double>(longest);
  const bool correct = pred == label;
  if (correct) ++correct_;
  ++count_;
  return correct;
}

double RecMetric::acc() const { return count_ == 0 ? 0.0 : static_cast<double>(correct_) / count_; }

double RecMetric::norm_edit_dis() const { return count_ == 0 ? 0.0 : 1.0 - norm_edit_sum_ / count_; }

}  // namespace ocrforge
