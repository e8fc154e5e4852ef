// `--lang` model sets: "ch" is the PP-OCRv4 folder, "en" swaps in the
// recognizer of <models>/en/rec with the dictionary of its inference.yml;
// an unknown language and a missing model file are errors that say what to do.
#include "ocrforge/infer/lang_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "ocrforge/core/error.h"
#include "test_support.h"

namespace ocrforge {
namespace {

namespace fs = std::filesystem;

// A models folder with placeholder files where the model files go (only their
// presence is checked here; loading them is the pipeline's job).
std::string models_folder(const std::string& name, bool with_en) {
  const std::string dir = test::fresh_dir(name);
  for (const char* part : {"det", "rec", "cls"}) {
    fs::create_directories(dir + "/PP-OCRv4/" + part);
    test::write_text(dir + "/PP-OCRv4/" + part + "/inference.onnx", "placeholder");
  }
  test::write_text(dir + "/PP-OCRv4/ppocr_keys_v1.txt", "a\nb\n");
  if (with_en) {
    fs::create_directories(dir + "/en/rec");
    test::write_text(dir + "/en/rec/inference.onnx", "placeholder");
    test::write_text(dir + "/en/rec/inference.yml",
                     "Global: {model_type: rec}\n"
                     "PreProcess: {transform_ops: [{RecResizeImg: {image_shape: [3, 48, 320]}}]}\n"
                     "PostProcess: {name: CTCLabelDecode, character_dict: [x, y, z], use_space_char: true}\n");
    test::write_text(dir + "/en/words.txt", "word\n");
  }
  return dir;
}

std::string error_of(const std::function<void()>& f) { return test::message_of<Error>(f); }

TEST(LangModels, ChIsTheDefaultSetAndEnIsListed) {
  const auto langs = available_langs();
  ASSERT_GE(langs.size(), 2u);
  EXPECT_EQ(langs[0], "ch");
  EXPECT_NE(std::find(langs.begin(), langs.end(), "en"), langs.end());
}

TEST(LangModels, ChUsesThePpOcrV4Folder) {
  const std::string dir = models_folder("lang_models_ch", false);
  const OcrParams p = ocr_params_for_lang("ch", dir);
  EXPECT_EQ(fs::path(p.rec.model_dir), fs::path(dir) / "PP-OCRv4" / "rec");
  EXPECT_EQ(fs::path(p.rec.char_dict_path), fs::path(dir) / "PP-OCRv4" / "ppocr_keys_v1.txt");
  EXPECT_TRUE(p.rec.characters.empty());
}

TEST(LangModels, EnResolvesTheEnRecognizerWithItsDictionaryAndKeepsDetAndCls) {
  const std::string dir = models_folder("lang_models_en", true);
  const OcrParams p = ocr_params_for_lang("en", dir);
  EXPECT_EQ(fs::path(p.rec.model_dir), fs::path(dir) / "en" / "rec");
  EXPECT_EQ(p.rec.characters, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(fs::path(p.det.model_dir), fs::path(dir) / "PP-OCRv4" / "det");
  EXPECT_EQ(fs::path(p.cls.model_dir), fs::path(dir) / "PP-OCRv4" / "cls");
  EXPECT_EQ(fs::path(p.rec.lexicon_path), fs::path(dir) / "en" / "words.txt");
  EXPECT_EQ(ocr_params_for_lang("ch", dir).rec.lexicon_path, "");  // no word list for Chinese
  EXPECT_FLOAT_EQ(p.det.post.box_thresh, 0.5f);  // documents: faint lines kept
  EXPECT_FLOAT_EQ(ocr_params_for_lang("ch", dir).det.post.box_thresh, 0.6f);  // PaddleOCR's
}

TEST(LangModels, MissingEnWordListIsNamed) {
  const std::string dir = models_folder("lang_models_nowords", true);
  fs::remove(dir + "/en/words.txt");
  const std::string msg = error_of([&] { ocr_params_for_lang("en", dir); });
  EXPECT_NE(msg.find("en/words.txt"), std::string::npos) << msg;
  EXPECT_NE(msg.find("make model-en"), std::string::npos) << msg;
}

TEST(LangModels, UnknownLanguageListsTheAvailableOnes) {
  const std::string dir = models_folder("lang_models_unknown", true);
  const std::string msg = error_of([&] { ocr_params_for_lang("fr", dir); });
  EXPECT_NE(msg.find("'fr'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("available: ch, en"), std::string::npos) << msg;
}

TEST(LangModels, MissingEnModelFileIsNamed) {
  const std::string dir = models_folder("lang_models_missing", false);
  const std::string msg = error_of([&] { ocr_params_for_lang("en", dir); });
  EXPECT_NE(msg.find("en/rec/inference.onnx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("make model-en"), std::string::npos) << msg;
  // ch does not need the en folder.
  EXPECT_NO_THROW(ocr_params_for_lang("ch", dir));
}

TEST(LangModels, MissingDetectorIsNamedForEnToo) {
  const std::string dir = models_folder("lang_models_nodet", true);
  fs::remove(dir + "/PP-OCRv4/det/inference.onnx");
  const std::string msg = error_of([&] { ocr_params_for_lang("en", dir); });
  EXPECT_NE(msg.find("PP-OCRv4/det/inference.onnx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bootstrap"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ocrforge
