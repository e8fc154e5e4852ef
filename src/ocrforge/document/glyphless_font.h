// The font of ocrforge's invisible text layers: a TrueType font whose every
// glyph is blank and 500 units (half an em) wide, as Tesseract's
// "GlyphLessFont". Text drawn with it in render mode 3 (invisible) is only
// there to be selected, searched and extracted; each word is scaled to its
// box, so the glyphs' shapes never matter.
#pragma once
#include <string>

namespace ocrforge {

// Advance width of every glyph, in 1/1000 em.
constexpr int kGlyphlessAdvance = 500;

// The font file (an sfnt with head, hhea, maxp, hmtx, loca, glyf, post and
// an empty glyph 1 for every character), made here at run time.
std::string glyphless_truetype();

}  // namespace ocrforge
