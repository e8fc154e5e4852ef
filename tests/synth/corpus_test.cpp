// Tests for the alphabet (dictionary ∩ fonts) and the text source
// (ocrforge/synth/alphabet.h, corpus.h).
#include "ocrforge/synth/corpus.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "synth_test_support.h"

using namespace ocrforge;

namespace {

std::vector<char32_t> probe_with_space(std::vector<char32_t> v) {
  v.push_back(U' ');
  return v;
}

struct Fixture {
  std::vector<char32_t> dict;
  FontSet fonts;
  Alphabet alphabet;
  Fixture(std::vector<char32_t> d, std::vector<std::string> font_files, bool space = true)
      : dict(std::move(d)),
        fonts(FontSet::load(font_files, probe_with_space(dict))),
        alphabet(dict, fonts, space, "test-dict") {}
};

}  // namespace

TEST(SynthAlphabet, DefaultIsPrintableAscii) {
  const auto chars = Alphabet::dictionary_chars("");
  EXPECT_EQ(chars.size(), 94u);  // '!'..'~'; the space comes from use_space_char
  Fixture f(chars, {test::dejavu_sans()});
  EXPECT_TRUE(f.alphabet.contains(U'a'));
  EXPECT_TRUE(f.alphabet.contains(U' '));
  EXPECT_TRUE(f.alphabet.cjk().empty());
  Fixture nospace(chars, {test::dejavu_sans()}, false);
  EXPECT_FALSE(nospace.alphabet.contains(U' '));
}

TEST(SynthAlphabet, ReadsSingleCharacterLines) {
  const std::string dir = test::fresh_dir("synth_alphabet");
  test::write_text(dir + "/dict.txt", "a\nb\r\nab\n\n\xE4\xB8\xAD\n");
  const auto chars = Alphabet::dictionary_chars(dir + "/dict.txt");
  EXPECT_EQ(chars, (std::vector<char32_t>{U'a', U'b', U'\u4e2d'}));
  EXPECT_THROW(Alphabet::dictionary_chars(dir + "/missing.txt"), Error);
}

TEST(SynthAlphabet, NoUsableCharactersIsAClearError) {
  // Only Chinese characters, but a Latin-only font: nothing can be drawn.
  try {
    Fixture f({U'\u4e2d', U'\u6587'}, {test::dejavu_sans()});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no usable characters"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test-dict"), std::string::npos) << e.what();
  }
}

TEST(SynthCorpus, BuiltInTextsUseOnlyTheAlphabet) {
  // Lower-case letters and digits only: words with capitals or punctuation,
  // dates with '/', prices with '$' must never come out.
  std::vector<char32_t> dict;
  for (char32_t c = U'a'; c <= U'z'; ++c) dict.push_back(c);
  for (char32_t c = U'0'; c <= U'9'; ++c) dict.push_back(c);
  Fixture f(dict, {test::dejavu_sans()});
  SynthTextParams p;
  p.upper_prob = p.title_prob = 0;
  TextSource src(p, f.alphabet);
  EXPECT_GT(src.word_count(), 1000u);
  for (int i = 0; i < 300; ++i) {
    SampleRng rng(1, static_cast<uint64_t>(i));
    const std::u32string t = src.next(rng, 3);
    EXPECT_TRUE(f.alphabet.allows(t)) << encode_utf8(t);
    EXPECT_GE(t.size(), 1u);
    EXPECT_LE(t.size(), 25u);
    EXPECT_NE(t.front(), U' ');
    EXPECT_NE(t.back(), U' ');
  }
}

TEST(SynthCorpus, BuiltInMixesWordsNumbersAndPunctuation) {
  Fixture f(Alphabet::dictionary_chars(""), {test::dejavu_sans()});
  TextSource src(SynthTextParams{}, f.alphabet);
  int digits = 0, spaces = 0, punct = 0;
  for (int i = 0; i < 400; ++i) {
    SampleRng rng(3, static_cast<uint64_t>(i));
    const std::string t = encode_utf8(src.next(rng, 3));
    digits += t.find_first_of("0123456789") != std::string::npos;
    spaces += t.find(' ') != std::string::npos;
    punct += t.find_first_of(".,:;!?()/-$#@\"") != std::string::npos;
  }
  EXPECT_GT(digits, 40);
  EXPECT_GT(spaces, 40);
  EXPECT_GT(punct, 40);
}

TEST(SynthCorpus, SameRngGivesSameText) {
  Fixture f(Alphabet::dictionary_chars(""), {test::dejavu_sans()});
  TextSource src(SynthTextParams{}, f.alphabet);
  SampleRng a(9, 5), b(9, 5);
  EXPECT_EQ(src.next(a, 3), src.next(b, 3));
}

TEST(SynthCorpus, CorpusLinesAreCutAtForeignCharacters) {
  const std::string dir = test::fresh_dir("synth_corpus");
  test::write_text(dir + "/corpus.txt", "hello w\xC3\xB6rld\n\n  two   spaces  \n" + std::string(40, 'x') + "\n");
  Fixture f(Alphabet::dictionary_chars(""), {test::dejavu_sans()});
  SynthTextParams p;
  p.corpus_path = dir + "/corpus.txt";
  p.max_chars = 20;
  TextSource src(p, f.alphabet);
  // "hello w", "rld", "two spaces", 40 x's (cut to <= 20 when drawn).
  EXPECT_EQ(src.corpus_size(), 4u);
  for (int i = 0; i < 100; ++i) {
    SampleRng rng(2, static_cast<uint64_t>(i));
    const std::u32string t = src.next(rng, 3);
    EXPECT_LE(t.size(), 20u);
    EXPECT_TRUE(f.alphabet.allows(t));
    EXPECT_EQ(t.find(U"  "), std::u32string::npos);
  }
  test::write_text(dir + "/foreign.txt", "\xE4\xB8\xAD\xE6\x96\x87\n");
  p.corpus_path = dir + "/foreign.txt";
  EXPECT_THROW(TextSource(p, f.alphabet), Error);
  p.corpus_path = dir + "/missing.txt";
  EXPECT_THROW(TextSource(p, f.alphabet), Error);
}

TEST(SynthCorpus, ChineseWhenTheDictionaryAndAFontAllowIt) {
  if (!test::have_file(test::noto_cjk()) || !test::have_file(test::ppocr_dict())) GTEST_SKIP();
  const auto dict = Alphabet::dictionary_chars(test::ppocr_dict());
  Fixture latin(dict, {test::dejavu_sans()});
  EXPECT_TRUE(latin.alphabet.cjk().empty());  // no CJK font: no Chinese
  Fixture cjk(dict, {test::dejavu_sans(), test::noto_cjk()});
  EXPECT_GT(cjk.alphabet.cjk().size(), 6000u);
  SynthTextParams p;
  p.cjk_ratio = 0.5;
  TextSource src(p, cjk.alphabet);
  int chinese = 0;
  for (int i = 0; i < 200; ++i) {
    SampleRng rng(4, static_cast<uint64_t>(i));
    const std::u32string t = src.next(rng, 3);
    chinese += is_cjk(t[0]);
  }
  EXPECT_GT(chinese, 60);
  EXPECT_LT(chinese, 140);
}

TEST(SynthCorpus, MissingWordListIsAClearError) {
  Fixture f(Alphabet::dictionary_chars(""), {test::dejavu_sans()});
  SynthTextParams p;
  p.words_path = "/nonexistent/words";
  try {
    TextSource src(p, f.alphabet);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("wamerican"), std::string::npos) << e.what();
  }
}

TEST(SynthTemplates, CodesAvoidAmbiguousGlyphs) {
  for (int i = 0; i < 200; ++i) {
    SampleRng rng(5, static_cast<uint64_t>(i));
    const std::string code = make_code(rng, "word");
    if (code.find('-') == 2 || code.find('-') == 3) {
      EXPECT_EQ(code.find_first_of("OI01"), std::string::npos) << code;
    }
  }
  SampleRng rng(6, 0);
  EXPECT_EQ(apply_case(rng, "word", 1.0, 0.0), "WORD");
  EXPECT_EQ(apply_case(rng, "word", 0.0, 1.0), "Word");
  EXPECT_EQ(apply_case(rng, "Word", 0.0, 0.0), "Word");
}
