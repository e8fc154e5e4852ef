// The characters synthetic texts may use: the recognition dictionary's
// characters (PaddleOCR's character_dict_path, one per line) that at least
// one font can draw, plus the space when use_space_char is on. Every label
// the generators write uses only these characters.
#pragma once
#include <string>
#include <unordered_set>
#include <vector>

#include "ocrforge/synth/fonts.h"
#include "ocrforge/synth/params.h"

namespace ocrforge {

class Alphabet {
 public:
  // The dictionary's single-character lines (multi-character lines cannot be
  // checked per character and are left out); "" = printable ASCII, i.e.
  // PaddleOCR's en_dict.txt. Throws Error when the file cannot be read.
  static std::vector<char32_t> dictionary_chars(const std::string& dict_path);

  // Keeps the dictionary characters some font covers. Throws Error naming the
  // dictionary when none is left ("no usable characters").
  Alphabet(const std::vector<char32_t>& dict_chars, const FontSet& fonts, bool use_space,
           const std::string& dict_name);

  bool contains(char32_t c) const { return chars_.count(c) != 0; }
  bool allows(const std::u32string& text) const;
  // Drawable CJK unified ideographs of the dictionary, in dictionary order.
  const std::vector<char32_t>& cjk() const { return cjk_; }
  size_t size() const { return chars_.size(); }

 private:
  std::unordered_set<char32_t> chars_;
  std::vector<char32_t> cjk_;
};

// U+4E00..U+9FFF and extension A: the ideographs PaddleOCR's Chinese
// dictionary is made of.
inline bool is_cjk(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }

std::string encode_utf8(const std::u32string& s);

}  // namespace ocrforge
