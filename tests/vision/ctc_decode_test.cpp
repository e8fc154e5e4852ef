// Greedy CTC decoding against a small dictionary.
#include "ocrforge/vision/ctc_decode.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using ocrforge::Charset;
using ocrforge::ctc_greedy_decode;

namespace {

// One row per step: `winner` gets probability p, the rest share 1 - p.
std::vector<float> steps(const std::vector<std::pair<int, float>>& seq, int classes) {
  std::vector<float> out;
  for (const auto& [winner, p] : seq)
    for (int c = 0; c < classes; ++c) out.push_back(c == winner ? p : (1.f - p) / (classes - 1));
  return out;
}

const Charset& abc() {
  static const Charset cs = Charset::from_chars({"a", "b", "c"}, false);  // 0 blank, 1 a, 2 b, 3 c
  return cs;
}

}  // namespace

TEST(CtcDecode, CollapsesRepeats) {
  const auto p = steps({{1, .9f}, {1, .9f}, {2, .9f}, {2, .9f}, {3, .9f}}, 4);
  EXPECT_EQ(ctc_greedy_decode(p.data(), 5, 4, abc()).text, "abc");
}

TEST(CtcDecode, BlankSeparatesRepeatedLetters) {
  const auto p = steps({{1, .9f}, {0, .9f}, {1, .9f}, {0, .9f}, {0, .9f}, {2, .9f}}, 4);
  EXPECT_EQ(ctc_greedy_decode(p.data(), 6, 4, abc()).text, "aab");
}

TEST(CtcDecode, ScoreIsMeanOfKeptSteps) {
  // Kept: a (0.9), b (0.5); the repeated a and the blank do not count.
  const auto p = steps({{1, .9f}, {1, .4f}, {0, .99f}, {2, .5f}}, 4);
  const auto r = ctc_greedy_decode(p.data(), 4, 4, abc());
  EXPECT_EQ(r.text, "ab");
  EXPECT_NEAR(r.score, 0.7f, 1e-6);
}

TEST(CtcDecode, EmptyGivesZeroScore) {
  const auto p = steps({{0, .9f}, {0, .8f}}, 4);
  const auto r = ctc_greedy_decode(p.data(), 2, 4, abc());
  EXPECT_EQ(r.text, "");
  EXPECT_EQ(r.score, 0.f);
  const auto none = ctc_greedy_decode(nullptr, 0, 4, abc());
  EXPECT_EQ(none.text, "");
  EXPECT_EQ(none.score, 0.f);
}

TEST(CtcDecode, TiesGoToTheLowerIndex) {
  const std::vector<float> p = {0.4f, 0.4f, 0.1f, 0.1f,   // blank wins the tie
                                0.1f, 0.1f, 0.4f, 0.4f};  // b wins the tie
  EXPECT_EQ(ctc_greedy_decode(p.data(), 2, 4, abc()).text, "b");
}

TEST(CtcDecode, SpaceAndMultibyteCharacters) {
  const Charset cs = Charset::from_chars({"中", "文"}, true);  // 3 = " "
  const auto p = steps({{1, .9f}, {3, .9f}, {2, .9f}}, 4);
  EXPECT_EQ(ctc_greedy_decode(p.data(), 3, 4, cs).text, "中 文");
}

TEST(CtcDecode, ClassCountMismatchThrowsNamingBoth) {
  const auto p = steps({{1, .9f}}, 6);
  try {
    ctc_greedy_decode(p.data(), 1, 6, abc());
    FAIL() << "expected ocrforge::Error";
  } catch (const ocrforge::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find('6'), std::string::npos) << msg;
    EXPECT_NE(msg.find('4'), std::string::npos) << msg;
    EXPECT_NE(msg.find("does not fit the model"), std::string::npos) << msg;
  }
}

TEST(CtcDecode, SymbolsKeepTheirStepRuns) {
  // a a _ b _ _ a: three symbols, the first run spans steps 0-1.
  const auto p = steps({{1, .9f}, {1, .4f}, {0, .9f}, {2, .8f}, {0, .9f}, {0, .9f}, {1, .7f}}, 4);
  const auto r = ctc_greedy_decode(p.data(), 7, 4, abc());
  ASSERT_EQ(r.text, "aba");
  EXPECT_EQ(r.steps, 7);
  ASSERT_EQ(r.symbols.size(), 3u);
  EXPECT_EQ(r.symbols[0].first_step, 0);
  EXPECT_EQ(r.symbols[0].last_step, 1);
  EXPECT_FLOAT_EQ(r.symbols[0].prob, .9f);
  EXPECT_EQ(r.symbols[1].first_step, 3);
  EXPECT_EQ(r.symbols[1].last_step, 3);
  EXPECT_EQ(r.symbols[2].first_step, 6);
  EXPECT_EQ(r.symbols[2].offset, 2);
  EXPECT_EQ(r.symbols[2].length, 1);
}
