// NRTRLabelEncode's index rules (nrtr_label_encode.h).
#include "ocrforge/train/tasks/rec/nrtr_label_encode.h"

#include <string>

#include "ocrforge/core/error.h"

namespace ocrforge {

std::vector<int64_t> nrtr_label_from_ctc(const std::vector<int64_t>& ctc_indices, int64_t chars, int max_text_length) {
  const auto n = static_cast<int64_t>(ctc_indices.size());
  if (n >= max_text_length - 1) return {};
  std::vector<int64_t> label(static_cast<size_t>(max_text_length), kNrtrPadding);
  label[0] = kNrtrStart;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t ctc = ctc_indices[static_cast<size_t>(i)];
    if (ctc < 1 || ctc > chars)
      throw Error("internal: CTC index " + std::to_string(ctc) + " is not a dictionary character (1.." +
                  std::to_string(chars) + ")");
    label[static_cast<size_t>(i + 1)] = ctc + 3;
  }
  label[static_cast<size_t>(n + 1)] = kNrtrEnd;
  return label;
}

}  // namespace ocrforge
