#include "ocrforge/vision/lexicon.h"

#include <algorithm>
#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// Byte offsets of the UTF-8 characters of `s`, plus s.size(): edits work on
// characters, so "café" -> "cafe" is one substitution.
std::vector<size_t> char_starts(const std::string& s) {
  std::vector<size_t> at;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) at.push_back(i);
  at.push_back(s.size());
  return at;
}

constexpr uint64_t kIdBits = 24;
constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;

// FNV-1a of s's bytes outside [skip_from, skip_to): stable across runs and
// platforms, and a deletion's hash needs no copy of the string.
uint64_t hash_without(const std::string& s, size_t skip_from, size_t skip_to) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < s.size(); ++i)
    if (i < skip_from || i >= skip_to) h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
  return h & ~kIdMask;
}

// The hashes of `s` and of every string made by deleting one of its characters.
std::vector<uint64_t> hashes_with_deletions(const std::string& s) {
  std::vector<uint64_t> out{hash_without(s, 0, 0)};
  const auto at = char_starts(s);
  for (size_t i = 0; i + 1 < at.size(); ++i) out.push_back(hash_without(s, at[i], at[i + 1]));
  return out;
}

// True when a and b differ by at most one insert, delete, substitution or
// swap of neighbours (restricted Damerau-Levenshtein distance <= 1).
bool within_one_edit(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const size_t n = a.size(), m = b.size();
  if (n > m + 1 || m > n + 1) return false;
  size_t i = 0;
  while (i < std::min(n, m) && a[i] == b[i]) ++i;
  if (i == n && i == m) return true;
  auto same_tail = [&](size_t ia, size_t ib) {
    return std::equal(a.begin() + static_cast<long>(ia), a.end(), b.begin() + static_cast<long>(ib), b.end());
  };
  if (n == m)
    return same_tail(i + 1, i + 1) ||
           (i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && same_tail(i + 2, i + 2));
  return n > m ? same_tail(i + 1, i) : same_tail(i, i + 1);
}

bool is_lower_ascii(const std::string& s) {
  return std::none_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

}  // namespace

std::string in_capitals(std::string word) {
  for (char& c : word)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return word;
}

Lexicon Lexicon::from_words(const std::vector<std::string>& words, std::string source) {
  Lexicon lx;
  lx.source_ = std::move(source);
  for (const std::string& w : words) {
    if (w.empty() || w.find_first_of(" \t") != std::string::npos) continue;
    if (w.size() > 2 && w.compare(w.size() - 2, 2, "'s") == 0) continue;
    lx.forms_.push_back(w);
    lx.folded_.push_back(to_lower(w));
  }
  if (lx.folded_.size() > kIdMask)
    throw Error("the word list " + (lx.source_.empty() ? std::string() : "'" + lx.source_ + "' ") + "has " +
                std::to_string(lx.folded_.size()) + " words; at most " + std::to_string(kIdMask) + " are supported");
  for (uint64_t id = 0; id < lx.folded_.size(); ++id)
    for (uint64_t h : hashes_with_deletions(lx.folded_[id])) lx.index_.push_back(h | id);
  std::sort(lx.index_.begin(), lx.index_.end());
  lx.index_.erase(std::unique(lx.index_.begin(), lx.index_.end()), lx.index_.end());
  return lx;
}

Lexicon Lexicon::load(const std::string& path, const std::string& setting) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot read the word list '" + path + "' (" + setting +
                "): give a file of one word per line (Debian's wamerican package installs "
                "/usr/share/dict/american-english)");
  std::vector<std::string> words;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    words.push_back(line);
  }
  Lexicon lx = from_words(words, path);
  if (lx.size() == 0) throw Error("the word list '" + path + "' (" + setting + ") holds no word");
  return lx;
}

template <class F>
void Lexicon::for_each_entry(uint64_t key_hash, F&& f) const {
  for (auto it = std::lower_bound(index_.begin(), index_.end(), key_hash);
       it != index_.end() && (*it & ~kIdMask) == key_hash; ++it)
    f(static_cast<uint32_t>(*it & kIdMask));
}

bool Lexicon::accepts(const std::string& word) const {
  const std::string folded = to_lower(word);
  bool found = false;
  for_each_entry(hash_without(folded, 0, 0), [&](uint32_t id) {
    const std::string& form = forms_[id];
    if (found || folded_[id] != folded) return;
    // As listed; a lower-case entry capitalised or in capitals; a
    // capitalised one ("Germany") in capitals.
    found = word == form || word == in_capitals(form) ||
            (is_lower_ascii(form) && word.size() == form.size() && word.substr(1) == form.substr(1));
  });
  return found;
}

std::vector<std::string> Lexicon::near(const std::string& word) const {
  const std::string folded = to_lower(word);
  const auto query = utf8_chars(folded);
  std::vector<uint32_t> ids;
  for (uint64_t h : hashes_with_deletions(folded)) for_each_entry(h, [&](uint32_t id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::string> out;
  for (uint32_t id : ids)
    if (within_one_edit(query, utf8_chars(folded_[id]))) out.push_back(forms_[id]);
  return out;
}

}  // namespace ocrforge
