// Greedy CTC decoding as PaddleOCR's CTCLabelDecode (is_remove_duplicate,
// blank index 0 ignored, confidence = mean of the kept steps' maxima).
#include "ocrforge/vision/ctc_decode.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

RecText ctc_greedy_decode(const float* probs, int steps, int classes, const Charset& charset) {
  if (classes != charset.num_classes()) {
    throw Error("the recognition model outputs " + std::to_string(classes) + " classes but the dictionary " +
                (charset.source().empty() ? std::string() : "'" + charset.source() + "' ") + "gives " +
                std::to_string(charset.num_classes()) +
                " (blank + characters + optional space): the dictionary does not fit the model; "
                "check rec_char_dict_path and use_space_char");
  }
  RecText out;
  double sum = 0.0;
  int kept = 0;
  int prev = -1;
  out.steps = steps;
  for (int t = 0; t < steps; ++t) {
    const float* row = probs + static_cast<size_t>(t) * classes;
    int best = 0;  // np.argmax: first index of the maximum
    for (int c = 1; c < classes; ++c)
      if (row[c] > row[best]) best = c;
    // Duplicates are judged against the previous step's index, blank or not,
    // so a blank between two equal letters keeps both.
    if (best != 0 && best != prev) {
      const std::string& ch = charset.text_of(best);
      out.symbols.push_back(
          {t, t, row[best], static_cast<int>(out.text.size()), static_cast<int>(ch.size())});
      out.text += ch;
      sum += row[best];
      ++kept;
    } else if (best != 0) {
      out.symbols.back().last_step = t;  // the character's run goes on
    }
    prev = best;
  }
  out.score = kept > 0 ? static_cast<float>(sum / kept) : 0.f;
  return out;
}

}  // namespace ocrforge
