// Fonts for synthetic text: which files, which characters each one really
// has (FreeType's cmap: FT_Get_Char_Index != 0), and per-worker renderers.
// Text is only ever drawn with a font that covers every one of its
// characters, so no sample shows tofu boxes for a label character.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <opencv2/freetype.hpp>

namespace ocrforge {

// UTF-8 -> code points; invalid bytes become U+FFFD (which no text passes).
std::u32string decode_utf8(const std::string& s);

struct FontInfo {
  std::string path;
  int face_index = 0;    // face inside a .ttc collection
  std::string name;      // "DejaVu Sans Bold"
  // Ink extent above / below the baseline per pixel of font size, measured on
  // capitals, ascenders, descenders (and a CJK ideograph when present): the
  // line box used to size rec crops whatever letters a word has.
  double ascent = 0.75, descent = 0.22;
};

class FontSet {
 public:
  // `specs`: font files and folders (searched recursively for .ttf, .otf,
  // .ttc; sorted by path so the set never depends on directory order). Empty
  // = default_font_files(). `codepoints`: the characters texts may use; the
  // coverage of exactly these is recorded. In a .ttc collection the Simplified
  // Chinese face ("... SC") is used when there is one, else face 0. Throws
  // Error naming the file when a font cannot be loaded, and when no font is found.
  static FontSet load(const std::vector<std::string>& specs, const std::vector<char32_t>& codepoints);

  // DejaVu + Liberation fonts installed on this machine (Debian's
  // fonts-dejavu-core, fonts-liberation2), without the math and extra-light
  // faces; empty when none is installed.
  static std::vector<std::string> default_font_files();

  size_t size() const { return fonts_.size(); }
  const FontInfo& info(size_t i) const { return fonts_.at(i); }
  bool covers(size_t font, char32_t c) const { return coverage_.at(font).count(c) != 0; }
  bool covers(size_t font, const std::u32string& text) const;
  // Fonts covering every character of `text`, in set order.
  std::vector<size_t> fonts_covering(const std::u32string& text) const;
  // Whether any font has `c` (texts with other characters are never drawn).
  bool any_covers(char32_t c) const { return union_.count(c) != 0; }

 private:
  std::vector<FontInfo> fonts_;
  std::vector<std::unordered_set<char32_t>> coverage_;
  std::unordered_set<char32_t> union_;
};

// One OpenCV FreeType2 renderer per font, created on first use. Not shared
// between threads: every worker owns one (FreeType faces are not thread-safe).
class FontRenderers {
 public:
  explicit FontRenderers(const FontSet& set) : set_(&set), renderers_(set.size()) {}
  cv::freetype::FreeType2& get(size_t font);

 private:
  const FontSet* set_;
  std::vector<cv::Ptr<cv::freetype::FreeType2>> renderers_;
};

}  // namespace ocrforge
