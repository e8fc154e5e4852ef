// End-to-end tests of synth_rec / synth_det (ocrforge/synth/synth.h):
// determinism across worker counts, label validity, glyph coverage, bad input.
#include "ocrforge/synth/synth.h"

#include <gtest/gtest.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/charset.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/core/text.h"
#include "ocrforge/synth/label_writer.h"
#include "ocrforge/vision/det_metric.h"
#include "synth_test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

// Every file under `a` has a byte-identical twin under `b` and vice versa.
void expect_same_tree(const std::string& a, const std::string& b) {
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(a)) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), a);
    ASSERT_TRUE(fs::exists(fs::path(b) / rel)) << rel;
    EXPECT_EQ(test::read_text(e.path().string()), test::read_text((fs::path(b) / rel).string())) << rel;
    ++files;
  }
  size_t other = 0;
  for (const auto& e : fs::recursive_directory_iterator(b)) other += e.is_regular_file();
  EXPECT_EQ(files, other);
  EXPECT_GT(files, 1u);
}

// Independent FreeType check: does the face (index as the generator picks
// it for collections) have a glyph for every character of `text`?
bool freetype_covers(const std::string& font, long face_index, const std::string& text) {
  FT_Library lib;
  FT_Init_FreeType(&lib);
  FT_Face face;
  bool ok = FT_New_Face(lib, font.c_str(), face_index, &face) == 0;
  if (ok) {
    for (char32_t c : decode_utf8(text)) ok = ok && FT_Get_Char_Index(face, c) != 0;
    FT_Done_Face(face);
  }
  FT_Done_FreeType(lib);
  return ok;
}

}  // namespace

TEST(Synth, RecIsByteIdenticalWithAnyNumberOfWorkers) {
  const std::string a = test::fresh_dir("synth_det_rec_a"), b = test::fresh_dir("synth_det_rec_b");
  SynthRecParams p = test::small_rec(a, 24);
  p.common.workers = 1;
  synth_rec(p);
  p.common.out_dir = b;
  p.common.workers = 3;
  synth_rec(p);
  expect_same_tree(a, b);
  // A different seed gives different pictures.
  const std::string c = test::fresh_dir("synth_det_rec_c");
  p.common.out_dir = c;
  p.common.seed = 43;
  synth_rec(p);
  EXPECT_NE(test::read_text(a + "/rec_gt.txt"), test::read_text(c + "/rec_gt.txt"));
}

TEST(Synth, DetIsByteIdenticalWithAnyNumberOfWorkers) {
  const std::string a = test::fresh_dir("synth_det_det_a"), b = test::fresh_dir("synth_det_det_b");
  SynthDetParams p = test::small_det(a, 6);
  p.common.workers = 1;
  synth_det(p);
  p.common.out_dir = b;
  p.common.workers = 3;
  synth_det(p);
  expect_same_tree(a, b);
}

TEST(Synth, RecLabelsUseOnlyDictionaryCharacters) {
  const std::string dir = test::fresh_dir("synth_rec_labels");
  SynthRecParams p = test::small_rec(dir, 60);
  const SynthReport r = synth_rec(p);
  EXPECT_EQ(r.samples, 60);
  const auto labels = read_rec_labels(r.label_file);
  ASSERT_EQ(labels.size(), 60u);
  for (size_t i = 0; i < labels.size(); ++i) {
    EXPECT_EQ(labels[i].path, sample_relative_path(static_cast<long>(i), "jpg"));
    EXPECT_FALSE(labels[i].text.empty());
    for (unsigned char ch : labels[i].text) EXPECT_TRUE(ch >= 0x20 && ch < 0x7F) << labels[i].text;
    const cv::Mat img = cv::imread(dir + "/" + labels[i].path);
    ASSERT_FALSE(img.empty()) << labels[i].path;
    EXPECT_EQ(img.rows, 48);
  }
}

TEST(Synth, ChineseLabelsAreInThePaddleDictionary) {
  if (!test::have_file(test::noto_cjk()) || !test::have_file(test::ppocr_dict())) GTEST_SKIP();
  const std::string dir = test::fresh_dir("synth_rec_zh");
  SynthRecParams p = test::small_rec(dir, 40);
  p.common.text.dict_path = test::ppocr_dict();
  p.common.fonts = {test::noto_cjk()};
  synth_rec(p);
  const Charset dict = Charset::load(test::ppocr_dict(), true);
  int chinese = 0;
  for (const auto& l : read_rec_labels(dir + "/rec_gt.txt")) {
    for (const std::string& ch : utf8_chars(l.text)) EXPECT_GE(dict.index_of(ch), 1) << l.text;
    chinese += is_cjk(decode_utf8(l.text)[0]);
  }
  EXPECT_GT(chinese, 5);
}

TEST(Synth, DetPolygonsAreValidAndInsideTheirImages) {
  const std::string dir = test::fresh_dir("synth_det_labels");
  SynthDetParams p = test::small_det(dir, 12);
  p.small_text_prob = 0.3;  // exercise "###"
  const SynthReport r = synth_det(p);
  const auto labels = read_det_labels(r.label_file);
  ASSERT_EQ(labels.size(), 12u);
  long lines = 0, ignored = 0;
  for (const auto& l : labels) {
    const cv::Mat img = cv::imread(dir + "/" + l.path);
    ASSERT_FALSE(img.empty());
    for (const auto& reg : l.regions) {
      ++lines;
      ignored += reg.ignore();
      ASSERT_EQ(reg.points.size(), 4u);
      std::vector<cv::Point2f> poly;
      for (const auto& pt : reg.points) {
        EXPECT_GE(pt[0], 0);
        EXPECT_GE(pt[1], 0);
        EXPECT_LE(pt[0], img.cols - 1);
        EXPECT_LE(pt[1], img.rows - 1);
        poly.emplace_back(pt[0], pt[1]);
      }
      EXPECT_TRUE(polygon_is_valid(poly)) << l.path << " " << reg.transcription;
      if (reg.ignore()) continue;
      for (unsigned char ch : reg.transcription) EXPECT_TRUE(ch >= 0x20 && ch < 0x7F) << reg.transcription;
    }
  }
  EXPECT_EQ(lines, r.regions);
  EXPECT_EQ(ignored, r.ignored);
  EXPECT_GT(lines, 24);
  EXPECT_GT(ignored, 0);
}

TEST(Synth, LatinFontNeverDrawsChinese) {
  if (!test::have_file(test::ppocr_dict())) GTEST_SKIP();
  // A corpus of Chinese and mixed lines, the Chinese dictionary, but only a
  // Latin font: Chinese must never be drawn (it would be tofu boxes).
  const std::string dir = test::fresh_dir("synth_tofu");
  test::write_text(dir + "/corpus.txt",
                   "\xE4\xB8\xAD\xE6\x96\x87\xE6\xB5\x8B\xE8\xAF\x95\n"  // 中文测试
                   "price 12 \xE5\x85\x83 total\n"                       // price 12 元 total
                   "hello world\n");
  SynthRecParams p = test::small_rec(dir + "/out", 30);
  p.common.text.dict_path = test::ppocr_dict();
  p.common.text.corpus_path = dir + "/corpus.txt";
  p.common.fonts = {test::dejavu_sans()};
  synth_rec(p);
  const auto labels = read_rec_labels(dir + "/out/rec_gt.txt");
  // Lines the font cannot draw are skipped; the Latin ones must still come out.
  ASSERT_GE(labels.size(), 10u) << "no samples: the loop below would check nothing";
  for (const auto& l : labels) {
    EXPECT_TRUE(freetype_covers(test::dejavu_sans(), 0, l.text)) << l.text;
    EXPECT_TRUE(l.text == "hello world" || l.text == "price 12" || l.text == "total") << l.text;
  }
}

TEST(Synth, EverySampleIsDrawnWithAFontHavingItsGlyphs) {
  if (!test::have_file(test::noto_cjk()) || !test::have_file(test::ppocr_dict())) GTEST_SKIP();
  SynthRecParams p = test::small_rec("", 1);
  p.common.text.dict_path = test::ppocr_dict();
  p.common.fonts = {"/usr/share/fonts/truetype/dejavu", test::noto_cjk()};
  SynthInputs inputs(p.common);
  FontRenderers renderers(inputs.fonts());
  for (uint64_t i = 0; i < 80; ++i) {
    const SynthRecSample s = render_rec_sample(p, inputs.sources(), renderers, i);
    const FontInfo& f = inputs.fonts().info(s.font);
    EXPECT_TRUE(freetype_covers(f.path, f.face_index, s.text)) << s.text << " drawn with " << f.path;
  }
}

TEST(Synth, UnloadableFontIsAClearErrorAndWritesNothing) {
  const std::string dir = test::fresh_dir("synth_badfont");
  test::write_text(dir + "/bad.ttf", "not a font at all");
  SynthRecParams p = test::small_rec(dir + "/out", 3);
  p.common.fonts = {dir + "/bad.ttf"};
  try {
    synth_rec(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.ttf"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/out"));
}

TEST(Synth, DictionaryWithoutUsableCharactersIsAClearError) {
  const std::string dir = test::fresh_dir("synth_baddict");
  test::write_text(dir + "/dict.txt", "\xE4\xB8\xAD\n\xE6\x96\x87\nab\n");  // Chinese + a 2-char line
  SynthRecParams p = test::small_rec(dir + "/out", 3);
  p.common.text.dict_path = dir + "/dict.txt";
  p.common.fonts = {test::dejavu_sans()};
  try {
    synth_rec(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no usable characters"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dict.txt"), std::string::npos) << e.what();
  }
}

TEST(Synth, UnwritableOutputIsAClearError) {
  const std::string dir = test::fresh_dir("synth_badout");
  test::write_text(dir + "/not_a_folder", "x");
  SynthDetParams p = test::small_det(dir + "/not_a_folder/out", 2);
  EXPECT_THROW(synth_det(p), Error);
}

TEST(Synth, BadKnobsAreNamed) {
  SynthRecParams p = test::small_rec("/tmp/unused", 0);
  try {
    synth_rec(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--num"), std::string::npos);
  }
  p.common.num = 1;
  p.common.augment.blur_prob = 2;
  try {
    validate(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--blur_prob"), std::string::npos);
  }
  SynthDetParams d = test::small_det("/tmp/unused", 1);
  d.font_px = {30, 10};
  EXPECT_THROW(validate(d), Error);
}
