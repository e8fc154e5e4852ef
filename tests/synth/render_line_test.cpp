// Tests for line rendering and the text + font choice that guarantees glyph
// coverage (ocrforge/synth/render_line.h).
#include "ocrforge/synth/render_line.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "synth_test_support.h"

using namespace ocrforge;

TEST(SynthRenderLine, InkBoundsAndLineBox) {
  FontSet set = FontSet::load({test::dejavu_sans()}, {U'A'});
  FontRenderers r(set);
  LineMask hgy = render_line(r.get(0), set.info(0), "Hgy", 40);
  LineMask one = render_line(r.get(0), set.info(0), "one", 40);
  ASSERT_FALSE(hgy.ink.empty());
  EXPECT_EQ(cv::boundingRect(hgy.alpha), hgy.ink);
  EXPECT_GT(hgy.ink.height, one.ink.height);  // ascender + descender
  // ...but both get the same line box height: crops are sized from it.
  EXPECT_NEAR(hgy.line_box.height, one.line_box.height, 2.0);
  EXPECT_LE(hgy.line_box.y, hgy.ink.y);
  EXPECT_GE(hgy.line_box.y + hgy.line_box.height, hgy.ink.y + hgy.ink.height);
  // The baseline is between the top of "H" and the bottom of "g".
  EXPECT_GT(hgy.baseline, hgy.ink.y);
  EXPECT_LT(hgy.baseline, hgy.ink.y + hgy.ink.height);
}

TEST(SynthRenderLine, UnderlineAndFrameExtendTheInk) {
  FontSet set = FontSet::load({test::dejavu_sans()}, {U'A'});
  FontRenderers r(set);
  SampleRng rng(1, 1);
  LineMask m = render_line(r.get(0), set.info(0), "word", 30);
  const cv::Rect before = m.ink;
  draw_underline(m, rng);
  EXPECT_GT(m.ink.y + m.ink.height, before.y + before.height);
  LineMask f = render_line(r.get(0), set.info(0), "word", 30);
  draw_frame(f, rng);
  EXPECT_LT(f.ink.x, before.x);
}

TEST(SynthRenderLine, ChinesePicksAFontThatHasTheGlyphs) {
  if (!test::have_file(test::noto_cjk()) || !test::have_file(test::ppocr_dict())) GTEST_SKIP();
  // Latin fonts first in the set: a uniformly drawn font usually lacks the
  // Chinese glyphs and must be replaced by the CJK font.
  std::vector<char32_t> dict = Alphabet::dictionary_chars(test::ppocr_dict());
  std::vector<char32_t> probe = dict;
  probe.push_back(U' ');
  FontSet set = FontSet::load({"/usr/share/fonts/truetype/dejavu", test::noto_cjk()}, probe);
  Alphabet alphabet(dict, set, true, "ppocr_keys_v1.txt");
  SynthTextParams p;
  p.cjk_ratio = 0.7;
  TextSource src(p, alphabet);
  int chinese = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    SampleRng rng(5, i);
    const ChosenText c = choose_text(src, set, rng, 3);
    ASSERT_TRUE(set.covers(c.font, c.text)) << encode_utf8(c.text) << " with " << set.info(c.font).path;
    if (is_cjk(c.text[0])) {
      ++chinese;
      EXPECT_EQ(set.info(c.font).path, test::noto_cjk());
    }
  }
  EXPECT_GT(chinese, 50);
}
