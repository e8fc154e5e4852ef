// PaddleOCR's NRTRLabelEncode (ppocr/data/imaug/label_ops.py), the NRTR half
// of MultiLabelEncode with gtc_encode: NRTRLabelEncode (`label_gtc`). Torch-free.
//
// NRTR class layout (D = dictionary lines + 1 with use_space_char):
//   0 <blank> (padding), 1 <unk>, 2 <s>, 3 </s>, 4..D+3 the characters in
//   file order (= CTC index + 3)
// so the NRTR head's out_channels is D + 4 (PaddleOCR's out_channels_list
// ["NRTRLabelDecode"] = CTC classes + 3).
// Label: [<s>] + text + [</s>], padded with 0 to max_text_length. A text of
// max_text_length - 1 or more characters (after dropping unknown ones) is
// rejected, as SARLabelEncode's; the CTC label's own rules apply first.
#pragma once
#include <cstdint>
#include <vector>

namespace ocrforge {

constexpr int64_t kNrtrPadding = 0;
constexpr int64_t kNrtrStart = 2;
constexpr int64_t kNrtrEnd = 3;

// `ctc_indices`: the text's CTC class indices (1..D, no padding); `chars` = D.
// Returns the NRTR label (max_text_length values), or an empty vector when
// the text is too long for it.
std::vector<int64_t> nrtr_label_from_ctc(const std::vector<int64_t>& ctc_indices, int64_t chars, int max_text_length);

}  // namespace ocrforge
