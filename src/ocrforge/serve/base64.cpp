#include "ocrforge/serve/base64.h"

#include <array>

namespace ocrforge {

static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = b[i] << 16;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (b[i] << 16) | (b[i + 1] << 8);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

static std::array<signed char, 256> decode_table() {
  std::array<signed char, 256> t{};
  t.fill(-1);
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<signed char>(i);
  return t;
}

std::optional<std::string> base64_decode(const std::string& text, std::string* why) {
  static const std::array<signed char, 256> table = decode_table();
  size_t start = 0;
  if (text.rfind("data:", 0) == 0) {
    const size_t comma = text.find(',');
    if (comma == std::string::npos || comma < 7 || text.compare(comma - 7, 7, ";base64") != 0) {
      if (why) *why = "a data URL that is not ;base64";
      return std::nullopt;
    }
    start = comma + 1;
  }
  std::string out;
  out.reserve((text.size() - start) / 4 * 3);
  unsigned acc = 0;
  int bits = 0, pad = 0;
  size_t digits = 0;
  for (size_t i = start; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      ++pad;
      continue;
    }
    const int v = table[c];
    if (v < 0 || pad > 0) {
      if (why)
        *why = pad > 0 ? "data after '=' padding at offset " + std::to_string(i)
                       : "character '" + std::string(1, static_cast<char>(c)) + "' at offset " + std::to_string(i) +
                             " is not in the Base64 alphabet";
      return std::nullopt;
    }
    ++digits;
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  if (digits % 4 == 1) {
    if (why) *why = "its length is impossible for Base64 (" + std::to_string(digits) + " digits)";
    return std::nullopt;
  }
  return out;
}

}  // namespace ocrforge
