// Number, date, price and code templates of the built-in text generator.
// Ambiguous glyph pairs (O/0, I/l/1) are kept out of random codes so that a
// label is always readable from the picture alone. Pieces that draw random
// numbers are joined with cat({...}): a braced list is evaluated left to
// right, while the operands of a + b chain are not ordered by the language.
#include <cstdio>
#include <initializer_list>
#include <string>

#include "ocrforge/synth/corpus.h"

namespace ocrforge {

namespace {

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, a);
  return buf;
}
std::string num(SampleRng& rng, int lo, int hi) { return std::to_string(rng.uniform_int(lo, hi)); }
std::string pad2(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }
std::string cat(std::initializer_list<std::string> parts) {
  std::string s;
  for (const auto& p : parts) s += p;
  return s;
}
// Thousands separators: 1234567 -> "1,234,567".
std::string grouped(long v, char sep) {
  std::string s = std::to_string(v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += sep;
    out += s[i];
  }
  return out;
}
template <size_t N>
const char* pick(SampleRng& rng, const char* const (&list)[N]) { return list[rng.index(N)]; }

const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char* const kLongMonths[] = {"January", "February", "March", "April", "May", "June", "July",
                                   "August", "September", "October", "November", "December"};
constexpr const char* kCodeLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ";  // no I, O
constexpr const char* kCodeDigits = "23456789";                    // no 0, 1

std::string code_chars(SampleRng& rng, int n, bool letters, bool digits) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    const bool letter = letters && (!digits || rng.chance(0.5));
    s += letter ? kCodeLetters[rng.index(24)] : kCodeDigits[rng.index(8)];
  }
  return s;
}

}  // namespace

std::string make_number(SampleRng& rng) {
  switch (rng.index(6)) {
    case 0: return num(rng, 0, 999);
    case 1: return grouped(rng.uniform_int(1000, 9999999), ',');
    case 2: return fmt("%.2f", rng.uniform(0, 9999));
    case 3: return fmt("%.1f%%", rng.uniform(0, 100));
    case 4: return "-" + num(rng, 1, 999);
    default: return cat({"+", num(rng, 1, 99), " ", num(rng, 100, 999), "-", num(rng, 1000, 9999)});
  }
}

std::string make_date(SampleRng& rng) {
  const int y = rng.uniform_int(1950, 2035), m = rng.uniform_int(1, 12), d = rng.uniform_int(1, 28);
  switch (rng.index(7)) {
    case 0: return std::to_string(y) + "-" + pad2(m) + "-" + pad2(d);
    case 1: return pad2(d) + "/" + pad2(m) + "/" + std::to_string(y);
    case 2: return pad2(d) + "." + pad2(m) + "." + pad2(y % 100);
    case 3: return std::string(pick(rng, kLongMonths)) + " " + std::to_string(d) + ", " + std::to_string(y);
    case 4: return std::to_string(d) + " " + pick(rng, kMonths) + " " + std::to_string(y);
    case 5: return cat({pad2(rng.uniform_int(0, 23)), ":", pad2(rng.uniform_int(0, 59))});
    default:
      return cat({pad2(rng.uniform_int(1, 12)), ":", pad2(rng.uniform_int(0, 59)), rng.chance(0.5) ? " AM" : " PM"});
  }
}

std::string make_price(SampleRng& rng) {
  const std::string amount =
      rng.chance(0.7) ? fmt("%.2f", rng.uniform(0.1, 999)) : grouped(rng.uniform_int(1, 99999), ',');
  switch (rng.index(6)) {
    case 0: return "$" + amount;
    case 1: return "USD " + amount;
    case 2: return amount + " EUR";
    case 3: return "\xE2\x82\xAC" + amount;  // euro sign
    case 4: return "\xC2\xA3" + amount;      // pound sign
    default: return "Total: $" + amount;
  }
}

std::string make_code(SampleRng& rng, const std::string& word) {
  switch (rng.index(9)) {
    case 0: return cat({code_chars(rng, 2, true, false), "-", code_chars(rng, 4, false, true)});
    case 1: return cat({code_chars(rng, 3, true, true), "-", code_chars(rng, 4, true, true)});
    case 2: return "#" + code_chars(rng, rng.uniform_int(3, 6), false, true);
    case 3: return "No. " + num(rng, 1, 999);
    case 4: return "ID: " + code_chars(rng, 6, false, true);
    case 5: return cat({"v", num(rng, 1, 9), ".", num(rng, 0, 20), ".", num(rng, 0, 99)});
    case 6: return cat({"REF/", num(rng, 2000, 2035), "/", code_chars(rng, 4, false, true)});
    case 7: return word + "@" + pick(rng, {"example", "mail", "post", "web"}) + ".com";
    default: return "www." + word + "." + pick(rng, {"com", "org", "net", "de"});
  }
}

std::string make_punct(SampleRng& rng, const std::string& word, const std::string& word2) {
  switch (rng.index(9)) {
    case 0: return word + ",";
    case 1: return word + ".";
    case 2: return "(" + word + ")";
    case 3: return "\"" + word + "\"";
    case 4: return word + ":";
    case 5: return word + "!";
    case 6: return word + "?";
    case 7: return word + "-" + word2;
    default: return word + "/" + word2;
  }
}

std::string apply_case(SampleRng& rng, std::string word, double upper_prob, double title_prob) {
  // Otherwise the word stays as listed: lower case, names capitalised.
  const double r = rng.uniform(0.0, 1.0);
  const bool upper = r < upper_prob, title = !upper && r < upper_prob + title_prob;
  for (size_t i = 0; i < word.size(); ++i) {
    char& c = word[i];
    if ((upper || (title && i == 0)) && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return word;
}

}  // namespace ocrforge
