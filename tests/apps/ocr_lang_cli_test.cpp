// `ocrforge ocr --lang`: an unknown language is a usage error listing the
// model sets, a missing `en` model file is named, and `--lang en` reads with
// the recognizer of models/en/rec and the word list of models/en/words.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "apps/ocr_cli_support.h"
#include "ocrforge/core/text.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

const std::string kSample = "/samples/imgs_ger_1.jpg";

// A models folder whose PP-OCRv4 set links to the real one and that has no en/.
std::string models_without_en(const std::string& dir) {
  fs::create_directories(dir + "/models/PP-OCRv4");
  for (const char* part : {"det", "rec", "cls", "ppocr_keys_v1.txt"})
    fs::create_symlink(test::model_root() + "/" + part, dir + "/models/PP-OCRv4/" + part);
  return dir + "/models/PP-OCRv4";
}

}  // namespace

TEST(OcrLangCli, UnknownLanguageIsAUsageErrorListingTheModelSets) {
  const std::string dir = test::fresh_dir("lang_unknown");
  const auto r = test::ocr("--lang fr --image_dir " + test::data_dir() + kSample + " --draw_img_save_dir " + dir, dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--lang 'fr'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("available: ch, en"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/system_results.txt")) << "nothing is read with an unknown language";
}

TEST(OcrLangCli, MissingEnModelFileIsNamed) {
  const std::string dir = test::fresh_dir("lang_missing");
  const std::string root = models_without_en(dir);
  const auto r = test::run_command("OCRFORGE_MODEL_DIR=" + root + " " + test::binary() +
                                       " ocr --cpu_threads 2 --lang en --image_dir " + test::data_dir() + kSample +
                                       " --draw_img_save_dir " + dir + "/out",
                                   dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("en/rec/inference.onnx"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("make model-en"), std::string::npos) << r.err;
  // The same folder still serves the default language.
  const auto ch = test::run_command("OCRFORGE_MODEL_DIR=" + root + " " + test::binary() +
                                        " ocr --cpu_threads 2 --image_dir " + test::data_dir() + kSample +
                                        " --draw_img_save_dir " + dir + "/out_ch",
                                    dir);
  EXPECT_EQ(ch.exit_code, 0) << ch.err;
}

// The shipped en recognizer keeps the spaces of an English receipt that the
// default model drops ("107State Street", "07-24-201706:59PM"). Its letter
// case on receipts leans to capitals (its receipt lines are mostly upper case;
// docs/shipped-models.md), so the words are compared without case.
TEST(OcrLangCli, EnReadsAReceiptWithItsSpaces) {
  if (!fs::exists(test::source_dir() + "/models/en/rec/inference.onnx")) GTEST_SKIP() << "models/en is absent";
  const std::string dir = test::fresh_dir("lang_en");
  const std::string receipt = test::data_dir() + "/samples/imgs_en_254.jpg";
  const auto en = test::ocr("--lang en --image_dir " + receipt + " --visualize false --draw_img_save_dir " + dir + "/en", dir);
  ASSERT_EQ(en.exit_code, 0) << en.err;
  EXPECT_NE(to_lower(en.out).find("107 state street\t"), std::string::npos) << en.out;
  EXPECT_NE(to_lower(en.out).find("07-24-2017 06:59 pm\t"), std::string::npos) << en.out;
  const auto ch = test::ocr("--image_dir " + receipt + " --visualize false --draw_img_save_dir " + dir + "/ch", dir);
  ASSERT_EQ(ch.exit_code, 0) << ch.err;
  EXPECT_EQ(to_lower(ch.out).find("107 state street\t"), std::string::npos) << "the default model is not the en one:\n" << ch.out;
}

// `--lang en` decodes with its word list (models/en/words.txt): on the
// receipt the recognizer alone reads "MONTPEIIER", which the list makes
// "MONTPELIER". `--rec_lexicon none` gives the greedy reading back, with the
// same lines; a word list that is not there is an error naming the flag.
TEST(OcrLangCli, EnDecodesWithItsWordListUnlessToldNot) {
  if (!fs::exists(test::source_dir() + "/models/en/words.txt")) GTEST_SKIP() << "models/en is absent";
  const std::string dir = test::fresh_dir("lang_en_words");
  const std::string receipt = test::data_dir() + "/samples/imgs_en_254.jpg";
  const auto on = test::ocr("--lang en --image_dir " + receipt + " --visualize false --draw_img_save_dir " + dir + "/on", dir);
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_NE(on.out.find("MONTPELIER VERMONT\t"), std::string::npos) << on.out;
  const auto off = test::ocr("--lang en --rec_lexicon none --image_dir " + receipt +
                                 " --visualize false --draw_img_save_dir " + dir + "/off", dir);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(off.out.find("MONTPELIER VERMONT\t"), std::string::npos) << off.out;
  // Only words change: the same lines, each with as many words.
  const auto lines = [](const std::string& out) {
    std::vector<std::string> v;
    for (const auto& l : split(out, '\n'))
      if (l.find('\t') != std::string::npos) v.push_back(l.substr(0, l.find('\t')));
    return v;
  };
  const auto a = lines(on.out), b = lines(off.out);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 10u);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(split(a[i], ' ').size(), split(b[i], ' ').size()) << a[i] << " / " << b[i];
  const auto missing = test::ocr("--lang en --rec_lexicon " + dir + "/absent.txt --image_dir " + receipt +
                                     " --visualize false --draw_img_save_dir " + dir + "/missing", dir);
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("absent.txt' (--rec_lexicon)"), std::string::npos) << missing.err;
}
