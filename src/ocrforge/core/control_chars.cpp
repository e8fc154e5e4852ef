#include "ocrforge/core/control_chars.h"

#include <cstdio>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

// Length of the control character at s[i] (1 for C0 / DEL, 2 for a UTF-8
// encoded C1), or 0 when there is none.
size_t control_at(const std::string& s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7F) return 1;
  if (c == 0xC2 && i + 1 < s.size()) {
    const auto d = static_cast<unsigned char>(s[i + 1]);
    if (d >= 0x80 && d <= 0x9F) return 2;
  }
  return 0;
}

std::string escape_at(const std::string& s, size_t i, size_t len) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c == '\t') return "\\t";
  char buf[8];
  if (len == 2) std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(s[i + 1]));
  else std::snprintf(buf, sizeof(buf), "\\x%02x", c);
  return buf;
}

}  // namespace

bool has_control_char(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (control_at(s, i)) return true;
  return false;
}

std::string printable(const std::string& s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t len = control_at(s, i);
    if (len == 0 || (keep_newlines && s[i] == '\n')) {
      out += s[i++];
      continue;
    }
    out += escape_at(s, i, len);
    i += len;
  }
  return out;
}

void require_line_safe(const std::string& field, const std::string& what, const std::string& format) {
  for (size_t i = 0; i < field.size(); ++i) {
    if (const size_t len = control_at(field, i))
      throw Error(what + " '" + printable(field) + "' holds a control character (" + escape_at(field, i, len) +
                  "), which " + format + " cannot hold (its lines and fields would split); rename it");
  }
}

}  // namespace ocrforge
