// SARLabelEncode / SARLabelDecode's index rules (sar_label_encode.h).
#include "ocrforge/train/tasks/rec/sar_label_encode.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

SarClasses sar_classes(const Charset& charset) {
  SarClasses c;
  c.chars = charset.num_classes() - 1;  // the CTC blank has no SAR class
  return c;
}

std::vector<int64_t> sar_label_from_ctc(const std::vector<int64_t>& ctc_indices, const SarClasses& classes,
                                        int max_text_length) {
  const auto n = static_cast<int64_t>(ctc_indices.size());
  if (n >= max_text_length - 1) return {};
  std::vector<int64_t> label(static_cast<size_t>(max_text_length), classes.padding());
  label[0] = classes.start();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t ctc = ctc_indices[static_cast<size_t>(i)];
    if (ctc < 1 || ctc > classes.chars)
      throw Error("internal: CTC index " + std::to_string(ctc) + " is not a dictionary character (1.." +
                  std::to_string(classes.chars) + ")");
    label[static_cast<size_t>(i + 1)] = ctc - 1;
  }
  label[static_cast<size_t>(n + 1)] = classes.end();
  return label;
}

std::string sar_indices_to_text(const std::vector<int64_t>& indices, const Charset& charset) {
  const SarClasses c = sar_classes(charset);
  std::string text;
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t idx = indices[i];
    if (idx == c.padding()) continue;
    if (idx == c.end()) {
      if (i == 0) continue;  // PaddleOCR skips a leading <BOS/EOS> when decoding indices alone
      break;
    }
    if (idx == c.unknown()) {
      text += "<UKN>";
      continue;
    }
    if (idx < 0 || idx > c.padding()) throw Error("SAR index " + std::to_string(idx) + " is out of range");
    text += charset.text_of(static_cast<int>(idx + 1));
  }
  return text;
}

}  // namespace ocrforge
