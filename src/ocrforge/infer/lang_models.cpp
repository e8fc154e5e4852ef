#include "ocrforge/infer/lang_models.h"

#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/export_folder.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

void require_file(const fs::path& p, const std::string& lang, const std::string& how) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    throw Error("--lang " + lang + ": model file '" + p.string() + "' is missing; " + how);
}

}  // namespace

std::vector<std::string> available_langs() { return {"ch", "en"}; }

OcrParams ocr_params_for_lang(const std::string& lang, const std::string& models_dir) {
  const auto langs = available_langs();
  bool known = false;
  for (const auto& l : langs) known = known || l == lang;
  if (!known) throw Error("--lang '" + lang + "' has no model set; available: " + joined(langs));

  const std::string bootstrap = "run scripts/bootstrap.sh (it installs models/PP-OCRv4) or set $OCRFORGE_MODEL_DIR";
  const fs::path ch = fs::path(models_dir) / "PP-OCRv4";
  for (const char* part : {"det", "rec", "cls"}) require_file(ch / part / "inference.onnx", lang, bootstrap);
  require_file(ch / "ppocr_keys_v1.txt", lang, bootstrap);

  OcrParams p;
  p.det.model_dir = (ch / "det").string();
  p.cls.model_dir = (ch / "cls").string();
  p.rec.model_dir = (ch / "rec").string();
  p.rec.char_dict_path = (ch / "ppocr_keys_v1.txt").string();
  if (lang == "en") {
    const fs::path en = fs::path(models_dir) / "en" / "rec";
    const std::string how = "it is part of the repository (models/en, checked with models/en/SHA256SUMS); "
                            "restore it with git, or remake it with `make model-en` (docs/shipped-models.md)";
    require_file(en / "inference.onnx", lang, how);
    require_file(en / "inference.yml", lang, how);
    require_file(en.parent_path() / "words.txt", lang, how);
    p.rec.model_dir = en.string();
    p.rec.lexicon_path = (en.parent_path() / "words.txt").string();
    // Documents: boxes of a mean score from 0.5 kept (PaddleOCR's 0.6 drops
    // faint typewritten and form lines; docs/shipped-models.md).
    p.det.post.box_thresh = 0.5f;
    apply_rec_export_folder(p.rec, /*dict_given=*/false, /*shape_given=*/false);
  }
  return p;
}

OcrParams ocr_params_for_lang(const std::string& lang) {
  const std::string root = default_model_root();
  if (root.empty()) throw Error("--lang " + lang + ": " + no_default_models_message());
  return ocr_params_for_lang(lang, fs::path(root).parent_path().string());
}

}  // namespace ocrforge
