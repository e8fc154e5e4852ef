#include "ocrforge/document/xml_text.h"

namespace ocrforge {

namespace {

const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at s[i], 0 when invalid.
size_t utf8_length(const std::string& s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  // U+FFFE and U+FFFF are not XML characters either.
  if (n == 3 && c == 0xEF && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
      static_cast<unsigned char>(s[i + 2]) >= 0xBE)
    return 0;
  return n;
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&#39;"; ++i; continue;
      default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
      ++i;
      continue;
    }
    const size_t n = utf8_length(s, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(s, i, n);
    i += n;
  }
  return out;
}

}  // namespace ocrforge
