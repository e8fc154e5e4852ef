// Words and their boxes from a recognised line, as PaddleOCR's
// return_word_box: the CTC output says at which time step each character was
// read, and the time steps tile the recogniser's input from left to right, so
// a word spans the steps of its first to its last character. Those spans are
// cut out of the line's crop and carried back into the image through the
// crop's own geometry (perspective warp, 90-degree turn of vertical lines,
// the classifier's 180-degree flip).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/vision/ctc_decode.h"
#include "ocrforge/vision/text_box.h"

namespace ocrforge {

// One word of a line: [x0, x1] as fractions of the crop's width as the
// recogniser saw it (0 = left edge of the text, reading direction).
struct WordSpan {
  std::string text;
  float x0 = 0.f, x1 = 0.f;
  float score = 0.f;  // mean probability of its characters
};

// Splits `rec` into words: runs of characters between spaces; a CJK
// ideograph (U+3400-U+9FFF, U+F900-U+FAFF, U+20000-U+2FFFF) is a word of its
// own, as PaddleOCR boxes Chinese text per character. Each word spans from
// the first time step of its first character to the last step of its last,
// widened by half a step on both sides (a character's CTC peak sits inside
// its glyph, not on its edges) and clipped to [0, 1]. The words' texts
// joined by single spaces give back `rec.text` with runs of spaces (and the
// spaces PaddleOCR would not have) normalised. Empty when rec has no symbols.
std::vector<WordSpan> split_words(const RecText& rec);

// Where the line crop's sub-rectangle [x0, x1] x [0, 1] (fractions of the
// crop as recognised) lies in the image: `box` is the line's quad (clockwise
// from top-left, as rotate_crop took it); `flipped` when the direction
// classifier turned the crop by 180 degrees. Returns the four corners,
// clockwise from the word's top-left in reading direction.
Quad crop_span_to_image(const Quad& box, float x0, float x1, bool flipped);

}  // namespace ocrforge
