#include "ocrforge/synth/corpus.h"

#include <algorithm>
#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

// Splits `line` at characters the alphabet lacks; spaces are trimmed and
// runs of spaces collapsed, so each piece is a clean label.
std::vector<std::u32string> usable_segments(const std::u32string& line, const Alphabet& a) {
  std::vector<std::u32string> out;
  std::u32string cur;
  auto flush = [&] {
    while (!cur.empty() && cur.back() == U' ') cur.pop_back();
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (char32_t c : line) {
    if (c == U'\t' || c == U'\r') c = U' ';
    if (c == U' ' ? !a.contains(U' ') : !a.contains(c)) {
      flush();
      continue;
    }
    if (c == U' ' && (cur.empty() || cur.back() == U' ')) continue;
    cur.push_back(c);
  }
  flush();
  return out;
}

std::u32string join_words(const std::vector<std::u32string>& words) {
  std::u32string s;
  for (size_t i = 0; i < words.size(); ++i) s += (i ? U" " : U"") + words[i];
  return s;
}

}  // namespace

TextSource::TextSource(const SynthTextParams& p, const Alphabet& alphabet)
    : p_(p), alphabet_(&alphabet), weights_(kKinds, 0.0) {
  if (p_.max_chars < 1 || p_.min_chars < 1 || p_.min_chars > p_.max_chars)
    throw UsageError("text length limits must satisfy 1 <= min_chars <= max_chars (got " + std::to_string(p_.min_chars) +
                ", " + std::to_string(p_.max_chars) + ")");
  if (!p_.corpus_path.empty()) {
    std::ifstream in(p_.corpus_path, std::ios::binary);
    if (!in) throw Error("corpus '" + p_.corpus_path + "' cannot be read (--corpus)");
    std::string line;
    while (std::getline(in, line))
      for (auto& seg : usable_segments(decode_utf8(line), alphabet))
        if (static_cast<int>(seg.size()) >= p_.min_chars) lines_.push_back(std::move(seg));
    if (lines_.empty())
      throw Error("corpus '" + p_.corpus_path + "' has no text made of the dictionary's drawable characters");
    weights_[Corpus] = 1.0;
    return;
  }
  std::ifstream in(p_.words_path, std::ios::binary);
  if (!in)
    throw Error("word list '" + p_.words_path + "' cannot be read: install Debian's wamerican "
                "(scripts/bootstrap.sh) or pass --corpus");
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || ends_with(line, "'s")) continue;
    std::u32string w = decode_utf8(line);
    if (alphabet.allows(w) && w.find(U' ') == std::u32string::npos && static_cast<int>(w.size()) <= p_.max_chars)
      words_.push_back(std::move(w));
  }
  const double base[kKinds] = {0.45, p_.use_space_char ? 0.2 : 0.0, 0.07, 0.07, 0.06, 0.08, 0.07, 0, 0};
  // A kind that never yields usable text under this dictionary gets weight 0.
  for (int k = 0; k < Corpus; ++k) {
    if (base[k] <= 0 || ((k == Word || k == Phrase || k == Punct) && words_.empty())) continue;
    SampleRng probe(0, static_cast<uint64_t>(k), 7);
    for (int i = 0; i < 64 && weights_[k] == 0; ++i)
      if (acceptable(draw(static_cast<Kind>(k), probe, 3))) weights_[k] = base[k];
  }
  double others = 0;
  for (double w : weights_) others += w;
  if (!alphabet.cjk().empty() && p_.cjk_ratio > 0) {
    if (p_.cjk_ratio >= 1 || others == 0) {
      std::fill(weights_.begin(), weights_.end(), 0.0);
      weights_[Cjk] = 1.0;
    } else {
      weights_[Cjk] = others * p_.cjk_ratio / (1 - p_.cjk_ratio);
    }
  }
  if (std::all_of(weights_.begin(), weights_.end(), [](double w) { return w == 0; }))
    throw Error("no text can be generated: the dictionary's drawable characters form no word, number, date or "
                "code (and no CJK text); pass --corpus with text made of them");
}

bool TextSource::acceptable(const std::u32string& t) const {
  const int n = static_cast<int>(t.size());
  return n >= p_.min_chars && n <= p_.max_chars && t.front() != U' ' && t.back() != U' ' && alphabet_->allows(t);
}

std::u32string TextSource::random_word(SampleRng& rng) const {
  const std::string w = encode_utf8(words_[rng.index(words_.size())]);
  return decode_utf8(apply_case(rng, w, p_.upper_prob, p_.title_prob));
}

std::u32string TextSource::draw_corpus(SampleRng& rng) const {
  const std::u32string& line = lines_[rng.index(lines_.size())];
  const size_t max_len = static_cast<size_t>(p_.max_chars);
  if (line.size() <= max_len) return line;
  // Too long: a random run of whole words, or of characters when a single
  // "word" is too long (e.g. Chinese has no spaces).
  std::vector<std::u32string> words;
  for (size_t s = 0, e; s <= line.size(); s = e + 1) {
    e = line.find(U' ', s);
    if (e == std::u32string::npos) e = line.size();
    words.push_back(line.substr(s, e - s));
  }
  const size_t start = rng.index(words.size());
  std::u32string out = words[start];
  for (size_t i = start + 1; i < words.size() && out.size() + 1 + words[i].size() <= max_len; ++i)
    out += U" " + words[i];
  if (out.size() <= max_len) return out;
  const size_t len = static_cast<size_t>(rng.uniform_int(std::min(p_.min_chars, p_.max_chars), p_.max_chars));
  const size_t from = rng.index(out.size() - len + 1);
  return out.substr(from, len);
}

std::u32string TextSource::draw_cjk(SampleRng& rng) const {
  const auto& pool = alphabet_->cjk();
  const int n = rng.uniform_int(std::max(p_.min_chars, 2), std::max(p_.min_chars, std::min(10, p_.max_chars)));
  std::u32string s;
  for (int i = 0; i < n; ++i) s.push_back(pool[rng.index(pool.size())]);
  return s;
}

std::u32string TextSource::draw(Kind kind, SampleRng& rng, int max_words) const {
  auto word = [&] { return words_.empty() ? std::string("data") : encode_utf8(random_word(rng)); };
  switch (kind) {
    case Word: return random_word(rng);
    case Phrase: {
      if (max_words < 2) return random_word(rng);  // a one-word line was asked for
      std::vector<std::u32string> ws;
      const int n = rng.uniform_int(2, max_words);
      for (int i = 0; i < n; ++i) ws.push_back(random_word(rng));
      while (ws.size() > 1 && static_cast<int>(join_words(ws).size()) > p_.max_chars) ws.pop_back();
      return join_words(ws);
    }
    case Number: return decode_utf8(make_number(rng));
    case Date: return decode_utf8(make_date(rng));
    case Price: return decode_utf8(make_price(rng));
    case Code: return decode_utf8(make_code(rng, to_lower(word())));
    case Punct: {
      const std::string first = word(), second = word();  // in this order, whatever the compiler
      return decode_utf8(make_punct(rng, first, second));
    }
    case Corpus: return draw_corpus(rng);
    case Cjk: return draw_cjk(rng);
    default: return U"";
  }
}

std::u32string TextSource::next(SampleRng& rng, int max_words) const {
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::u32string t = draw(static_cast<Kind>(rng.weighted(weights_)), rng, max_words);
    if (!t.empty() && acceptable(t)) return t;
  }
  throw Error("could not draw a text made of the dictionary's characters in 64 attempts; "
              "check --dict, --corpus and the text length limits");
}

}  // namespace ocrforge
