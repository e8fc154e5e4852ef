// `ocrforge ocr --lang`: an unknown language is a usage error listing the
// model sets, a missing `en` model file is named, and `--lang en` reads with
// the recognizer of models/en/rec.
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
