// One line of text drawn as an ink mask (FreeType + HarfBuzz through
// OpenCV's freetype module), with its exact ink bounds and baseline, and the
// choice of text + font that guarantees full glyph coverage.
#pragma once
#include <string>

#include <opencv2/core.hpp>

#include "ocrforge/synth/corpus.h"
#include "ocrforge/synth/fonts.h"

namespace ocrforge {

struct LineMask {
  cv::Mat alpha;    // 8-bit, 255 = full ink, 0 = none
  cv::Rect ink;     // tight bounds of the non-zero pixels (empty when nothing was drawn)
  int baseline = 0; // row of the baseline in `alpha`
  int px = 0;       // font size (FreeType pixel size)
  // The font's line box (ascender top to descender bottom) united with the
  // ink, in `alpha` coordinates: crops are sized from it, so "one" and "Hgy"
  // get the same text height at the same font size.
  cv::Rect2d line_box;
};

// Draws `text` at `px` pixels. Throws Error when the font cannot be loaded.
LineMask render_line(cv::freetype::FreeType2& ft, const FontInfo& font, const std::string& text, int px);

// Adds an underline below the baseline across the ink (rec samples).
void draw_underline(LineMask& m, SampleRng& rng);
// Adds a thin frame around the line box, like a table cell (rec samples);
// the line box is unchanged, so crops show the frame only in part.
void draw_frame(LineMask& m, SampleRng& rng);

struct ChosenText {
  std::u32string text;
  size_t font = 0;
};

// Draws a text and a font that has a glyph for every one of its characters:
// a uniformly drawn font when it covers the text, else one of the covering
// fonts; a text no single font covers is drawn again. Throws Error after 32
// texts without a covering font.
ChosenText choose_text(const TextSource& source, const FontSet& fonts, SampleRng& rng, int max_words);

}  // namespace ocrforge
