// Dictionary-aware CTC decoding: what it changes, what it leaves, and the
// likelihood it compares (checked against brute-force enumeration).
#include "ocrforge/vision/ctc_lexicon.h"

#include <cmath>
#include <functional>
#include <map>

#include <gtest/gtest.h>

using ocrforge::Charset;
using ocrforge::ctc_greedy_decode;
using ocrforge::ctc_log_likelihood;
using ocrforge::Lexicon;
using ocrforge::lexicon_correct;
using ocrforge::LexiconDecodeOptions;
using ocrforge::RecText;

namespace {

const Charset& latin() {
  static const Charset cs = [] {
    std::vector<std::string> chars;
    for (char c = '0'; c <= '9'; ++c) chars.push_back(std::string(1, c));
    for (char c = 'a'; c <= 'z'; ++c) chars.push_back(std::string(1, c));
    for (char c = 'A'; c <= 'Z'; ++c) chars.push_back(std::string(1, c));
    chars.push_back(".");
    return Charset::from_chars(chars, true);  // + " "
  }();
  return cs;
}

// One step per entry: the given characters get their probabilities ("" is
// blank), the rest of the mass is shared by every other class.
std::vector<float> steps(const std::vector<std::map<std::string, float>>& seq) {
  const Charset& cs = latin();
  const int classes = cs.num_classes();
  std::vector<float> out;
  for (const auto& step : seq) {
    float given = 0;
    for (const auto& [ch, p] : step) given += p;
    const float rest = (1.f - given) / static_cast<float>(classes - static_cast<int>(step.size()));
    for (int c = 0; c < classes; ++c) {
      auto it = step.find(c == 0 ? "" : cs.text_of(c));
      out.push_back(it != step.end() ? it->second : rest);
    }
  }
  return out;
}

// A word read letter by letter with blanks between; `alt` gives a letter a runner-up.
std::vector<std::map<std::string, float>> word(const std::string& w, std::map<size_t, std::pair<std::string, float>> alt = {},
                                               float p = 0.95f) {
  std::vector<std::map<std::string, float>> seq{{{"", 0.98f}}};
  for (size_t i = 0; i < w.size(); ++i) {
    std::map<std::string, float> step{{std::string(1, w[i]), p}};
    if (alt.count(i)) step = {{std::string(1, w[i]), p - alt[i].second}, {alt[i].first, alt[i].second}};
    seq.push_back(step);
    seq.push_back({{"", 0.98f}});
  }
  return seq;
}

RecText read(const std::vector<float>& probs) {
  return ctc_greedy_decode(probs.data(), static_cast<int>(probs.size()) / latin().num_classes(), latin().num_classes(),
                           latin());
}

int correct(const std::vector<float>& probs, RecText& r, const Lexicon& lx, float weight = 3.f) {
  LexiconDecodeOptions o;
  o.weight = weight;
  return lexicon_correct(probs.data(), r.steps, latin().num_classes(), latin(), lx, o, r);
}

const Lexicon& words() {
  static const Lexicon lx = Lexicon::from_words({"which", "the", "camp", "here", "Germany"});
  return lx;
}

}  // namespace

TEST(CtcLexicon, LikelihoodIsTheSumOverEveryAlignment) {
  // Brute force: every path of 4 steps over 4 classes, collapsed.
  const Charset cs = Charset::from_chars({"a", "b", "c"}, false);
  std::vector<float> p;
  const float rows[4][4] = {{.5f, .2f, .2f, .1f}, {.1f, .6f, .2f, .1f}, {.3f, .3f, .3f, .1f}, {.2f, .1f, .6f, .1f}};
  for (auto& r : rows) p.insert(p.end(), r, r + 4);
  std::map<std::vector<int>, double> total;
  for (int path = 0; path < 256; ++path) {
    std::vector<int> labels;
    double prob = 1;
    int prev = -1;
    for (int t = 0; t < 4; ++t) {
      const int c = (path >> (2 * t)) & 3;
      prob *= p[static_cast<size_t>(t * 4 + c)];
      if (c != 0 && c != prev) labels.push_back(c);
      prev = c;
    }
    total[labels] += prob;
  }
  ASSERT_GT(total.size(), 10u);
  for (const auto& [labels, prob] : total)
    EXPECT_NEAR(ctc_log_likelihood(p.data(), 4, 0, 3, labels), std::log(prob), 1e-9);
  EXPECT_EQ(ctc_log_likelihood(p.data(), 4, 0, 1, {1, 1}), -INFINITY);  // "aa" needs a blank between: 3 steps
  EXPECT_NEAR(ctc_log_likelihood(p.data(), 4, 1, 2, {1}), std::log(.6 * .3 + .6 * .3 + .1 * .3), 1e-6);
}

TEST(CtcLexicon, AWordTheModelNearlyReadBecomesIt) {
  const auto p = steps(word("whioh", {{3, {"c", 0.35f}}}));
  RecText r = read(p);
  ASSERT_EQ(r.text, "whioh");
  RecText unchanged = r;
  EXPECT_EQ(correct(p, unchanged, words(), 0.f), 0);  // no prior: the greedy reading is the likelier
  EXPECT_EQ(unchanged.text, "whioh");
  EXPECT_EQ(correct(p, r, words()), 1);
  EXPECT_EQ(r.text, "which");
  ASSERT_EQ(r.symbols.size(), 5u);
  EXPECT_EQ(r.symbols[3].offset, 3);
  EXPECT_EQ(r.symbols[3].first_step, 7);  // the step where the model put its "c"
  EXPECT_NEAR(r.symbols[3].prob, 0.35f, 1e-6);
  EXPECT_NEAR(r.score, 0.95f * 4 / 5 + (0.95f - 0.35f) / 5, 1e-5);  // the greedy reading's
}

TEST(CtcLexicon, AConfidentWordTheListLacksStays) {
  // "Eppinge", "Epting", "Ripping" are one edit away, but the model saw none of them.
  const auto p = steps(word("Epping"));
  RecText r = read(p);
  EXPECT_EQ(correct(p, r, Lexicon::from_words({"Eppinge", "Epting", "Ripping"})), 0);
  EXPECT_EQ(r.text, "Epping");
  // Had the model hesitated over its "E", the listed word would win.
  const auto q = steps(word("Epping", {{0, {"R", 0.2f}}, {1, {"i", 0.2f}}}));
  RecText s = read(q);
  EXPECT_EQ(correct(q, s, Lexicon::from_words({"Eppinge", "Epting", "Ripping"}), 5.f), 0)
      << "two letters away";
  const auto w = steps(word("Eptinq", {{5, {"g", 0.4f}}}));
  RecText t = read(w);
  EXPECT_EQ(correct(w, t, Lexicon::from_words({"Eppinge", "Epting", "Ripping"})), 1);
  EXPECT_EQ(t.text, "Epting");
}

TEST(CtcLexicon, ListedWordsShortWordsAndAbbreviationsAreNeverChanged) {
  const Lexicon lx = Lexicon::from_words({"here", "hero", "of", "son", "Com", "SOS"});
  const auto p = steps(word("here", {{3, {"o", 0.45f}}}));
  RecText r = read(p);
  ASSERT_EQ(r.text, "here");
  EXPECT_EQ(correct(p, r, lx, 10.f), 0);  // listed: telling "here" from "hero" needs more than a list
  const auto q = steps(word("ot", {{1, {"f", 0.45f}}}));
  RecText s = read(q);
  EXPECT_EQ(correct(q, s, lx, 10.f), 0);  // two letters
  const auto t = steps(word("TF", {{1, {"", 0.45f}}}));  // "T" is one edit away, but one letter
  RecText u = read(t);
  ASSERT_EQ(u.text, "TF");
  EXPECT_EQ(correct(t, u, Lexicon::from_words({"T"}), 10.f), 0);
  const auto a = steps(word("SDN", {{1, {"O", 0.4f}}}));  // "Sdn Bhd" on a receipt, not "SON"
  RecText b = read(a);
  EXPECT_EQ(correct(a, b, lx, 10.f), 0);
  const auto c = steps(word("com", {{0, {"C", 0.4f}}}));  // "facebook.com", not ".Com"
  RecText d = read(c);
  EXPECT_EQ(correct(c, d, lx, 10.f), 0);
  EXPECT_EQ(d.text, "com");
  const auto e = steps(word("coM", {{0, {"C", 0.4f}}, {2, {"m", 0.4f}}}));  // scrambled: the list's own case
  RecText f = read(e);
  EXPECT_EQ(correct(e, f, lx, 10.f), 1);
  EXPECT_EQ(f.text, "Com");
}

TEST(CtcLexicon, ScrambledCaseTakesTheListsSpellingTheModelPrefers) {
  const auto p = steps(word("HErE", {{1, {"e", 0.4f}}, {3, {"e", 0.4f}}}, 0.95f));
  RecText r = read(p);
  ASSERT_EQ(r.text, "HErE");
  EXPECT_EQ(correct(p, r, words()), 1);
  EXPECT_EQ(r.text, "Here");  // not "HERE": the model saw no capital R
}

TEST(CtcLexicon, WordsOfALineAreCorrectedEachOnItsOwn) {
  auto seq = word("the");
  auto second = word("oamp", {{0, {"c", 0.3f}}});
  seq.push_back({{" ", 0.95f}});
  seq.insert(seq.end(), second.begin(), second.end());
  seq.push_back({{".", 0.95f}});
  const auto p = steps(seq);
  RecText r = read(p);
  ASSERT_EQ(r.text, "the oamp.");
  EXPECT_EQ(correct(p, r, words()), 1);
  EXPECT_EQ(r.text, "the camp.");
  ASSERT_EQ(r.symbols.size(), 9u);
  for (size_t i = 1; i < r.symbols.size(); ++i) EXPECT_GT(r.symbols[i].first_step, r.symbols[i - 1].last_step);
  EXPECT_EQ(r.symbols[8].offset, 8);
}

TEST(CtcLexicon, DigitLookAlikesInNumbersBecomeDigits) {
  const auto p = steps(word("l944", {{0, {"1", 0.4f}}}));
  RecText r = read(p);
  ASSERT_EQ(r.text, "l944");
  EXPECT_EQ(correct(p, r, words()), 1);
  EXPECT_EQ(r.text, "1944");
  // A code whose letter the model is sure of stays; so does a word with one digit.
  const auto q = steps(word("B12"));
  RecText s = read(q);
  EXPECT_EQ(correct(q, s, words()), 0);
  const auto w = steps(word("Ol2", {{0, {"0", 0.4f}}}));
  RecText t = read(w);
  EXPECT_EQ(correct(w, t, words()), 0);
  EXPECT_EQ(t.text, "Ol2");
}

// A line of running text: "THE" and "SoUrce", read where the model could
// hardly tell the cases apart, take the line's case (lower, or a capital
// first); a capital the model is sure of stays, and so does a line too
// short to have a case.
TEST(CtcLexicon, LetterCaseFollowsTheLineWhereTheModelHesitates) {
  auto line = [](const std::vector<std::pair<std::string, std::map<size_t, std::pair<std::string, float>>>>& words) {
    std::vector<std::map<std::string, float>> seq;
    for (size_t i = 0; i < words.size(); ++i) {
      if (i > 0) seq.push_back({{" ", 0.95f}});
      auto w = word(words[i].first, words[i].second);
      seq.insert(seq.end(), w.begin(), w.end());
    }
    return steps(seq);
  };
  LexiconDecodeOptions o;
  const auto p = line({{"we", {}},
                       {"read", {}},
                       {"THE", {{0, {"t", 0.45f}}, {1, {"h", 0.45f}}, {2, {"e", 0.45f}}}},
                       {"SoUrce", {{0, {"s", 0.4f}}, {2, {"u", 0.45f}}}},
                       {"of", {}},
                       {"GPL", {}},
                       {"files", {}},
                       {"today", {}}});
  RecText r = read(p);
  ASSERT_EQ(r.text, "we read THE SoUrce of GPL files today");
  EXPECT_EQ(ocrforge::line_case_correct(p.data(), r.steps, latin().num_classes(), latin(), o, r), 2);
  // Each takes the likelier of lower case and a capital first (the model
  // leant to "T" and "S"); "GPL" the model was sure of.
  EXPECT_EQ(r.text, "we read The Source of GPL files today");
  const auto c = line({{"we", {}}, {"read", {}}, {"THE", {{0, {"t", 0.5f}}, {1, {"h", 0.45f}}, {2, {"e", 0.45f}}}},
                       {"files", {}}, {"today", {}}});
  RecText d = read(c);
  ASSERT_EQ(d.text, "we read tHE files today");  // the model leant to "t"
  EXPECT_EQ(ocrforge::line_case_correct(c.data(), d.steps, latin().num_classes(), latin(), o, d), 1);
  EXPECT_EQ(d.text, "we read the files today");
  // A line in capitals takes capitals.
  const auto q = line({{"TOTAL", {}}, {"AMOUNt", {{5, {"T", 0.4f}}}}, {"DUE", {}}});
  RecText s = read(q);
  EXPECT_EQ(ocrforge::line_case_correct(q.data(), s.steps, latin().num_classes(), latin(), o, s), 1);
  EXPECT_EQ(s.text, "TOTAL AMOUNT DUE");
  // Too few other letters to say: left as read.
  const auto w = line({{"Dr", {}}, {"SoUrce", {{2, {"u", 0.45f}}}}});
  RecText t = read(w);
  EXPECT_EQ(ocrforge::line_case_correct(w.data(), t.steps, latin().num_classes(), latin(), o, t), 0);
  EXPECT_EQ(t.text, "Dr SoUrce");
}
