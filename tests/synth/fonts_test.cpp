// Tests for font loading and glyph coverage (ocrforge/synth/fonts.h).
#include "ocrforge/synth/fonts.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "synth_test_support.h"

using namespace ocrforge;

TEST(SynthFonts, DecodesUtf8) {
  EXPECT_EQ(decode_utf8("Ab"), U"Ab");
  EXPECT_EQ(decode_utf8("\xE4\xB8\xAD\xC3\xA9"), U"\u4e2d\u00e9");  // 中é
  EXPECT_EQ(decode_utf8("\xF0\x9F\x98\x80"), U"\U0001F600");
  EXPECT_EQ(decode_utf8("\xFF"), U"\uFFFD");
}

TEST(SynthFonts, DefaultSetIsDejaVuAndLiberation) {
  const auto files = FontSet::default_font_files();
  ASSERT_FALSE(files.empty()) << "install fonts-dejavu-core and fonts-liberation2";
  bool dejavu = false, liberation = false;
  for (const auto& f : files) {
    dejavu = dejavu || f.find("DejaVu") != std::string::npos;
    liberation = liberation || f.find("Liberation") != std::string::npos;
    EXPECT_EQ(f.find("Math"), std::string::npos) << f;
    EXPECT_EQ(f.find("ExtraLight"), std::string::npos) << f;
  }
  EXPECT_TRUE(dejavu);
  EXPECT_TRUE(liberation);
}

TEST(SynthFonts, RecordsCoverageFromTheCmap) {
  if (!test::have_file(test::noto_cjk())) GTEST_SKIP() << "fonts-noto-cjk not installed";
  const std::vector<char32_t> probe{U'A', U'z', U'\u4e2d', U'\u6587', U' '};
  FontSet set = FontSet::load({test::dejavu_sans(), test::noto_cjk()}, probe);
  ASSERT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.covers(0, U"Az "));
  EXPECT_FALSE(set.covers(0, U'\u4e2d'));  // DejaVu has no Chinese
  EXPECT_TRUE(set.covers(1, U"A\u4e2d\u6587"));
  EXPECT_EQ(set.fonts_covering(U"\u4e2d"), std::vector<size_t>{1});
  EXPECT_EQ(set.fonts_covering(U"A"), (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(set.any_covers(U'\u6587'));
  // Characters outside the probe are never reported as covered.
  EXPECT_FALSE(set.covers(0, U'B'));
}

TEST(SynthFonts, CollectionsUseTheSimplifiedChineseFace) {
  if (!test::have_file(test::noto_cjk())) GTEST_SKIP() << "fonts-noto-cjk not installed";
  FontSet set = FontSet::load({test::noto_cjk()}, {U'A'});
  EXPECT_NE(set.info(0).name.find(" SC"), std::string::npos) << set.info(0).name;
  EXPECT_GT(set.info(0).face_index, 0);
}

TEST(SynthFonts, MeasuresLineExtents) {
  FontSet set = FontSet::load({test::dejavu_sans()}, {U'A'});
  EXPECT_GT(set.info(0).ascent, 0.6);
  EXPECT_LT(set.info(0).ascent, 1.0);
  EXPECT_GT(set.info(0).descent, 0.1);
  EXPECT_LT(set.info(0).descent, 0.4);
}

TEST(SynthFonts, FoldersAreSearchedAndSorted) {
  FontSet set = FontSet::load({"/usr/share/fonts/truetype/dejavu"}, {U'A'});
  ASSERT_GT(set.size(), 1u);
  for (size_t i = 1; i < set.size(); ++i) EXPECT_LT(set.info(i - 1).path, set.info(i).path);
}

TEST(SynthFonts, UnloadableFontIsAClearError) {
  const std::string dir = test::fresh_dir("synth_fonts_bad");
  test::write_text(dir + "/broken.ttf", "this is not a font");
  try {
    FontSet::load({dir + "/broken.ttf"}, {U'A'});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.ttf"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be loaded"), std::string::npos) << e.what();
  }
  EXPECT_THROW(FontSet::load({dir + "/missing.ttf"}, {U'A'}), Error);
  std::filesystem::create_directories(dir + "/empty");
  EXPECT_THROW(FontSet::load({dir + "/empty"}, {U'A'}), Error);
}

TEST(SynthFonts, RenderersLoadOnFirstUse) {
  FontSet set = FontSet::load({test::dejavu_sans()}, {U'A'});
  FontRenderers r(set);
  cv::freetype::FreeType2& a = r.get(0);
  EXPECT_EQ(&a, &r.get(0));
  int base = 0;
  EXPECT_GT(a.getTextSize("Hello", 20, -1, &base).width, 20);
}
