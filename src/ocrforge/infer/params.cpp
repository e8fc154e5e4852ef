#include "ocrforge/infer/params.h"

#include <cstdlib>
#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/core/process_info.h"

namespace fs = std::filesystem;

namespace ocrforge {

static bool is_model_root(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p / "det" / "inference.onnx", ec) && fs::exists(p / "rec" / "inference.onnx", ec);
}

static fs::path executable_dir() {
  const std::string exe = executable_path();
  return exe.empty() ? fs::path() : fs::path(exe).parent_path();
}

std::string default_model_root() {
  if (const char* env = std::getenv("OCRFORGE_MODEL_DIR"); env && *env) return env;
  const fs::path exe = executable_dir();
  const std::vector<fs::path> candidates = {
      exe / ".." / "models" / "PP-OCRv4", exe / ".." / "share" / "ocrforge" / "models" / "PP-OCRv4",
      fs::path("models") / "PP-OCRv4"};
  for (const auto& c : candidates) {
    if (is_model_root(c)) return fs::weakly_canonical(c).string();
  }
  return "";
}

OcrParams default_ocr_params() {
  OcrParams p;
  const std::string root = default_model_root();
  if (!root.empty()) {
    p.det.model_dir = root + "/det";
    p.rec.model_dir = root + "/rec";
    p.cls.model_dir = root + "/cls";
    p.rec.char_dict_path = root + "/ppocr_keys_v1.txt";
  }
  return p;
}

}  // namespace ocrforge
