#include "ocrforge/synth/alphabet.h"

#include <algorithm>
#include <fstream>

#include "ocrforge/core/error.h"

namespace ocrforge {

std::string encode_utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

std::vector<char32_t> Alphabet::dictionary_chars(const std::string& dict_path) {
  std::vector<char32_t> out;
  if (dict_path.empty()) {
    for (char32_t c = 0x21; c < 0x7F; ++c) out.push_back(c);
    return out;
  }
  std::ifstream in(dict_path, std::ios::binary);
  if (!in) throw Error("dictionary '" + dict_path + "' cannot be read (--dict): missing or no permission");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::u32string cps = decode_utf8(line);
    // Control characters and undecodable bytes can never be drawn.
    if (cps.size() == 1 && cps[0] >= 0x20 && cps[0] != 0x7F && cps[0] != 0xFFFD) out.push_back(cps[0]);
  }
  return out;
}

Alphabet::Alphabet(const std::vector<char32_t>& dict_chars, const FontSet& fonts, bool use_space,
                   const std::string& dict_name) {
  for (char32_t c : dict_chars) {
    if (c == U' ' || !fonts.any_covers(c) || chars_.count(c)) continue;
    chars_.insert(c);
    if (is_cjk(c)) cjk_.push_back(c);
  }
  if (chars_.empty())
    throw Error("dictionary '" + (dict_name.empty() ? std::string("<printable ASCII>") : dict_name) +
                "' has no usable characters: none of its single-character lines is drawn by the fonts (" +
                std::to_string(fonts.size()) + " fonts); check --dict and --fonts");
  // The space is PaddleOCR's use_space_char class, not a dictionary line.
  if (use_space && fonts.any_covers(U' ')) chars_.insert(U' ');
}

bool Alphabet::allows(const std::u32string& text) const {
  return std::all_of(text.begin(), text.end(), [&](char32_t c) { return chars_.count(c) != 0; });
}

}  // namespace ocrforge
