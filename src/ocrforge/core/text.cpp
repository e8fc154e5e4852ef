#include "ocrforge/core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "ocrforge/core/error.h"

namespace ocrforge {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string to_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::vector<std::string> split_whitespace(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

bool starts_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

bool ends_with(const std::string& s, const std::string& x) {
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

bool parse_bool(const std::string& value, const std::string& what) {
  const std::string v = to_lower(trim(value));
  if (v == "true" || v == "1" || v == "yes" || v == "on" || v == "t" || v == "y") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off" || v == "f" || v == "n") return false;
  throw UsageError(what + ": expected a boolean (True/False), got '" + value + "'");
}

int parse_int(const std::string& value, const std::string& what) {
  const std::string v = trim(value);
  char* end = nullptr;
  long r = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') throw UsageError(what + ": expected an integer, got '" + value + "'");
  return static_cast<int>(r);
}

double parse_double(const std::string& value, const std::string& what) {
  const std::string v = trim(value);
  char* end = nullptr;
  double r = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw UsageError(what + ": expected a number, got '" + value + "'");
  return r;
}

static std::string strip_brackets(std::string v) {
  v = trim(v);
  if (!v.empty() && (v.front() == '[' || v.front() == '(')) v.erase(0, 1);
  if (!v.empty() && (v.back() == ']' || v.back() == ')')) v.pop_back();
  return v;
}

std::vector<int> parse_int_list(const std::string& value, const std::string& what) {
  std::vector<int> out;
  for (const auto& part : split(strip_brackets(value), ',')) out.push_back(parse_int(part, what));
  return out;
}

std::vector<std::string> parse_string_list(const std::string& value) {
  std::vector<std::string> out;
  for (auto part : split(strip_brackets(value), ',')) {
    part = trim(part);
    if (part.size() >= 2 && (part.front() == '\'' || part.front() == '"') && part.back() == part.front())
      part = part.substr(1, part.size() - 2);
    out.push_back(part);
  }
  return out;
}

std::vector<std::string> utf8_chars(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (i + n > s.size()) n = 1;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) { n = 1; break; }
    }
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

size_t edit_distance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = static_cast<size_t>(-1);
  const auto w = utf8_chars(to_lower(word));
  for (const auto& c : candidates) {
    size_t d = edit_distance(w, utf8_chars(to_lower(c)));
    if (d < best_d) { best_d = d; best = c; }
  }
  // Only suggest when the typo is small relative to the word.
  if (best_d > std::max<size_t>(2, w.size() / 3)) return "";
  return best;
}

void strip_utf8_bom(std::string* line) {
  if (line->compare(0, 3, "\xEF\xBB\xBF") == 0) line->erase(0, 3);
}

}  // namespace ocrforge
