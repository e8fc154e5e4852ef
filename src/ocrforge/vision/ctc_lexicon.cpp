#include "ocrforge/vision/ctc_lexicon.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ocrforge/core/text.h"

namespace ocrforge {

namespace {

constexpr double kNone = -std::numeric_limits<double>::infinity();

double log_of(float p) { return std::log(std::max(static_cast<double>(p), 1e-30)); }

double log_add(double a, double b) {
  if (a == kNone) return b;
  if (b == kNone) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

// The labels with blanks around and between them, as CTC's lattice has them.
std::vector<int> with_blanks(const std::vector<int>& labels) {
  std::vector<int> ext(2 * labels.size() + 1, 0);
  for (size_t k = 0; k < labels.size(); ++k) ext[2 * k + 1] = labels[k];
  return ext;
}

// Whether the lattice may skip the blank before state s (different labels on its sides).
bool may_skip(const std::vector<int>& ext, size_t s) { return s >= 2 && ext[s] != 0 && ext[s] != ext[s - 2]; }

// The most likely alignment of `labels` to steps t0..t1: for each label the
// steps it holds (first, last), or nothing when none fits.
std::vector<CtcSymbol> align(const float* probs, int classes, int t0, int t1, const std::vector<int>& labels) {
  const std::vector<int> ext = with_blanks(labels);
  const size_t states = ext.size();
  const int n = t1 - t0 + 1;
  std::vector<double> score(states * static_cast<size_t>(n), kNone);
  std::vector<int> from(states * static_cast<size_t>(n), -1);
  auto lp = [&](int t, size_t s) { return log_of(probs[static_cast<size_t>(t) * classes + ext[s]]); };
  score[0] = lp(t0, 0);
  if (states > 1) score[1] = lp(t0, 1);
  for (int i = 1; i < n; ++i)
    for (size_t s = 0; s < states; ++s) {
      const double* prev = &score[(i - 1) * states];
      int best = static_cast<int>(s);
      if (s >= 1 && prev[s - 1] > prev[best]) best = static_cast<int>(s - 1);
      if (may_skip(ext, s) && prev[s - 2] > prev[best]) best = static_cast<int>(s - 2);
      if (prev[best] == kNone) continue;
      score[i * states + s] = prev[best] + lp(t0 + i, s);
      from[i * states + s] = best;
    }
  const double* last = &score[(n - 1) * states];
  int s = static_cast<int>(states) - 1;
  if (states > 1 && last[states - 2] > last[s]) s = static_cast<int>(states) - 2;
  if (last[s] == kNone) return {};
  std::vector<CtcSymbol> out(labels.size());
  for (auto& sym : out) sym.first_step = -1;
  for (int i = n - 1; i >= 0; --i) {
    if (s % 2 == 1) {
      CtcSymbol& sym = out[static_cast<size_t>(s / 2)];
      if (sym.first_step < 0) sym.last_step = t0 + i;
      sym.first_step = t0 + i;
    }
    if (i > 0) s = from[i * states + static_cast<size_t>(s)];
  }
  for (size_t k = 0; k < out.size(); ++k)
    out[k].prob = probs[static_cast<size_t>(out[k].first_step) * classes + labels[k]];
  return out;
}

bool is_digit(const std::string& ch) { return ch.size() == 1 && ch[0] >= '0' && ch[0] <= '9'; }

// ASCII letters and the Latin letters of U+00C0..U+024F (accented Latin), the
// characters a word of the list is made of.
bool is_letter(const std::string& ch) {
  if (ch.size() == 1) return (ch[0] >= 'a' && ch[0] <= 'z') || (ch[0] >= 'A' && ch[0] <= 'Z');
  if (ch.size() != 2) return false;
  const int cp = ((static_cast<unsigned char>(ch[0]) & 0x1F) << 6) | (static_cast<unsigned char>(ch[1]) & 0x3F);
  return cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7;
}

// The digit a letter is mistaken for in a number; 0 when it is not one.
char digit_look_alike(const std::string& ch) {
  if (ch.size() != 1) return 0;
  switch (ch[0]) {
    case 'l': case 'I': return '1';
    case 'O': case 'o': return '0';
    case 'S': return '5';
    case 'B': return '8';
    case 'Z': return '2';
    default: return 0;
  }
}

std::string capitalised(const std::string& w) {
  std::string s = w;
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

// A word's class labels; empty when the dictionary lacks one of its characters.
std::vector<int> labels_of(const std::string& word, const Charset& charset) {
  std::vector<int> labels;
  for (const std::string& ch : utf8_chars(word)) {
    const int idx = charset.index_of(ch);
    if (idx < 0) return {};
    labels.push_back(idx);
  }
  return labels;
}

struct Replacement {
  size_t first, last;  // symbols replaced (inclusive)
  std::string text;
  std::vector<CtcSymbol> symbols;
};

}  // namespace

double ctc_log_likelihood(const float* probs, int classes, int t0, int t1, const std::vector<int>& labels) {
  const std::vector<int> ext = with_blanks(labels);
  const size_t states = ext.size();
  std::vector<double> a(states, kNone), next(states);
  auto lp = [&](int t, size_t s) { return log_of(probs[static_cast<size_t>(t) * classes + ext[s]]); };
  a[0] = lp(t0, 0);
  if (states > 1) a[1] = lp(t0, 1);
  for (int t = t0 + 1; t <= t1; ++t) {
    for (size_t s = 0; s < states; ++s) {
      double v = a[s];
      if (s >= 1) v = log_add(v, a[s - 1]);
      if (may_skip(ext, s)) v = log_add(v, a[s - 2]);
      next[s] = v == kNone ? kNone : v + lp(t, s);
    }
    a.swap(next);
  }
  return states > 1 ? log_add(a[states - 1], a[states - 2]) : a[0];
}

namespace {

// A run of letters and digits of a decoded line: symbols first..last.
struct Token {
  size_t first = 0, last = 0;
  int letters = 0, digits = 0, capitals = 0, small = 0;
  std::string text;
};

bool is_capital(const std::string& ch) { return ch.size() == 1 && ch[0] >= 'A' && ch[0] <= 'Z'; }
bool is_small(const std::string& ch) { return ch.size() == 1 && ch[0] >= 'a' && ch[0] <= 'z'; }

std::vector<Token> tokens_of(const std::vector<std::string>& chars) {
  std::vector<Token> out;
  for (size_t a = 0; a < chars.size();) {
    if (!is_letter(chars[a]) && !is_digit(chars[a])) {
      ++a;
      continue;
    }
    Token t;
    t.first = a;
    for (; a < chars.size() && (is_letter(chars[a]) || is_digit(chars[a])); ++a) {
      (is_digit(chars[a]) ? t.digits : t.letters) += 1;
      t.capitals += is_capital(chars[a]);
      t.small += is_small(chars[a]);
      t.text += chars[a];
    }
    t.last = a - 1;
    out.push_back(std::move(t));
  }
  return out;
}

// The candidate the model finds likeliest, when it beats what was read by
// more than `weight` short of it; appended to `changes`.
void pick(const float* probs, int steps, int classes, const Charset& charset, const RecText& r,
          const std::vector<std::string>& chars, const Token& t, const std::vector<std::string>& candidates,
          double weight, std::vector<Replacement>& changes) {
  if (candidates.empty()) return;
  const size_t n = r.symbols.size();
  // The steps between the word's neighbours: its own, and the blanks around it.
  const int t0 = t.first > 0 ? r.symbols[t.first - 1].last_step + 1 : 0;
  const int t1 = t.last + 1 < n ? r.symbols[t.last + 1].first_step - 1 : steps - 1;
  std::vector<int> read;
  for (size_t i = t.first; i <= t.last; ++i) read.push_back(charset.index_of(chars[i]));
  double best = ctc_log_likelihood(probs, classes, t0, t1, read);
  std::string chosen;
  std::vector<int> chosen_labels;
  for (const std::string& c : candidates) {
    const std::vector<int> labels = labels_of(c, charset);
    if (labels.empty()) continue;
    const double v = ctc_log_likelihood(probs, classes, t0, t1, labels) + weight;
    if (v > best) {
      best = v;
      chosen = c;
      chosen_labels = labels;
    }
  }
  if (chosen.empty()) return;
  std::vector<CtcSymbol> symbols = align(probs, classes, t0, t1, chosen_labels);
  if (!symbols.empty()) changes.push_back({t.first, t.last, chosen, std::move(symbols)});
}

// `r` with the replacements (in symbol order) spliced in; the score stays
// the greedy reading's (the model's confidence, which drop_score compares).
void splice(RecText& r, const std::vector<std::string>& chars, const std::vector<Replacement>& changes) {
  RecText out;
  out.steps = r.steps;
  out.content_ratio = r.content_ratio;
  out.score = r.score;
  auto add = [&out](CtcSymbol s, const std::string& ch) {
    s.offset = static_cast<int>(out.text.size());
    s.length = static_cast<int>(ch.size());
    out.text += ch;
    out.symbols.push_back(s);
  };
  size_t next = 0;
  for (size_t i = 0; i < chars.size();) {
    if (next < changes.size() && changes[next].first == i) {
      const Replacement& c = changes[next++];
      const std::vector<std::string> letters = utf8_chars(c.text);
      for (size_t k = 0; k < c.symbols.size(); ++k) add(c.symbols[k], letters[k]);
      i = c.last + 1;
    } else {
      add(r.symbols[i], chars[i]);
      ++i;
    }
  }
  r = std::move(out);
}

std::vector<std::string> chars_of(const RecText& r) {
  std::vector<std::string> chars(r.symbols.size());
  for (size_t i = 0; i < chars.size(); ++i) chars[i] = r.text.substr(r.symbols[i].offset, r.symbols[i].length);
  return chars;
}

}  // namespace

int lexicon_correct(const float* probs, int steps, int classes, const Charset& charset, const Lexicon& lexicon,
                    const LexiconDecodeOptions& options, RecText& r) {
  const std::vector<std::string> chars = chars_of(r);
  std::vector<Replacement> changes;
  for (const Token& t : tokens_of(chars)) {
    const std::string& word = t.text;
    std::vector<std::string> candidates;
    if (t.digits == 0) {
      const bool capitals = word == in_capitals(word);
      if (t.letters < options.min_letters || (capitals && t.letters < options.min_capitals) || lexicon.accepts(word))
        continue;
      const bool lower = word == to_lower(word);
      for (const std::string& e : lexicon.near(word))
        for (const std::string& v : {e, capitalised(e), in_capitals(e)})
          if (v != word && static_cast<int>(v.size()) >= options.min_letters && !(lower && to_lower(v) == word) &&
              std::find(candidates.begin(), candidates.end(), v) == candidates.end() && lexicon.accepts(v))
            candidates.push_back(v);
    } else {
      if (t.letters == 0 || t.letters >= t.digits) continue;
      std::string number;  // every letter read as the digit it looks like, or none
      for (size_t i = t.first; i <= t.last; ++i) {
        const char d = is_digit(chars[i]) ? chars[i][0] : digit_look_alike(chars[i]);
        if (d == 0) break;
        number += d;
      }
      if (number.size() == t.last - t.first + 1) candidates.push_back(number);
    }
    pick(probs, steps, classes, charset, r, chars, t, candidates, options.weight, changes);
  }
  if (!changes.empty()) splice(r, chars, changes);
  return static_cast<int>(changes.size());
}

int line_case_correct(const float* probs, int steps, int classes, const Charset& charset,
                      const LexiconDecodeOptions& options, RecText& r) {
  const std::vector<std::string> chars = chars_of(r);
  const std::vector<Token> tokens = tokens_of(chars);
  int capitals = 0, small = 0;
  for (const Token& t : tokens) {
    capitals += t.capitals;
    small += t.small;
  }
  std::vector<Replacement> changes;
  for (const Token& t : tokens) {
    if (t.digits > 0 || t.letters < 2) continue;
    // The rest of the line's letters set its case: two thirds or more in one.
    const int caps = capitals - t.capitals, lows = small - t.small;
    if (caps + lows < options.min_case_letters) continue;
    const std::string lower = to_lower(t.text);
    std::vector<std::string> candidates;
    if (3 * lows >= 2 * (caps + lows)) {  // running text: lower case, or a capital first
      if (t.text != lower && t.text != capitalised(lower)) candidates = {lower, capitalised(lower)};
    } else if (3 * caps >= 2 * (caps + lows)) {  // a line in capitals
      if (t.text != in_capitals(t.text)) candidates = {in_capitals(t.text)};
    }
    pick(probs, steps, classes, charset, r, chars, t, candidates, options.case_weight, changes);
  }
  if (!changes.empty()) splice(r, chars, changes);
  return static_cast<int>(changes.size());
}

}  // namespace ocrforge
