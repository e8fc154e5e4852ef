// PaddleOCR's SARLabelEncode (ppocr/data/imaug/label_ops.py), the SAR half
// of MultiLabelEncode (`label_sar`). Torch-free.
//
// SAR class layout (no blank; D = dictionary lines + 1 with use_space_char):
//   index 0..D-1   the dictionary's characters, in file order (= CTC index - 1)
//   index D        <UKN>       (never produced: unknown characters are dropped first)
//   index D + 1    <BOS/EOS>   start and end share one index
//   index D + 2    <PAD>
// so the SARHead's out_channels is D + 3 (PaddleOCR's out_channels_list
// ["SARLabelDecode"] = CTC classes + 2) and it predicts D + 2 classes
// (everything but <PAD>).
// Label: [BOS] + text + [EOS], padded with <PAD> to max_text_length. A text of
// max_text_length - 1 or more characters (after dropping unknown ones) is
// rejected: BOS + text + EOS would not fit. The CTC label's own rules (empty,
// more than max_text_length characters before dropping) apply first.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"

namespace ocrforge {

struct SarClasses {
  int64_t chars = 0;  // D
  int64_t unknown() const { return chars; }
  int64_t start() const { return chars + 1; }  // == end(): <BOS/EOS>
  int64_t end() const { return chars + 1; }
  int64_t padding() const { return chars + 2; }
  int64_t out_channels() const { return chars + 3; }  // SARHead out_channels
  int64_t predicted() const { return chars + 2; }     // the decoder's prediction classes
};

// The SAR classes of a CTC dictionary (charset.num_classes() = D + 1).
SarClasses sar_classes(const Charset& charset);

// `ctc_indices`: the text's CTC class indices (ctc_label_encode's label
// without its padding, i.e. the first `length` values). Returns the SAR
// label (max_text_length values), or an empty vector when the text is too
// long for it (length >= max_text_length - 1).
std::vector<int64_t> sar_label_from_ctc(const std::vector<int64_t>& ctc_indices, const SarClasses& classes,
                                        int max_text_length);

// PaddleOCR's SARLabelDecode of one greedy index sequence: stops at the first
// <BOS/EOS> (except at position 0), skips <PAD>, writes <UKN> as "<UKN>".
std::string sar_indices_to_text(const std::vector<int64_t>& indices, const Charset& charset);

}  // namespace ocrforge
