#include "ocrforge/infer/params.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/infer/install_dirs.h"

namespace fs = std::filesystem;

namespace ocrforge {

static bool is_model_root(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p / "det" / "inference.onnx", ec) && fs::exists(p / "rec" / "inference.onnx", ec);
}

std::vector<std::string> default_model_search_path() {
  std::vector<fs::path> c;
  const std::string exe = executable_path();
  if (!exe.empty()) {
    const fs::path bin = fs::path(exe).parent_path();
    c.push_back(bin / ".." / "models" / "PP-OCRv4");
    c.push_back(bin / ".." / "share" / "ocrforge" / "models" / "PP-OCRv4");
  }
  for (const std::string& d : located_data_dirs()) c.push_back(fs::path(d) / "models" / "PP-OCRv4");
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  c.push_back(ec ? fs::path("models") / "PP-OCRv4" : cwd / "models" / "PP-OCRv4");
  c.push_back(fs::path(configured_data_dir()) / "models" / "PP-OCRv4");
  std::vector<std::string> out;
  for (const fs::path& p : c) {
    const std::string s = p.lexically_normal().string();
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

std::string default_model_root() {
  if (const char* env = std::getenv("OCRFORGE_MODEL_DIR"); env && *env) return env;
  for (const std::string& c : default_model_search_path()) {
    if (is_model_root(c)) return fs::weakly_canonical(c).string();
  }
  return "";
}

std::string no_default_models_message() {
  std::string where = "$OCRFORGE_MODEL_DIR (unset)";
  for (const std::string& c : default_model_search_path()) where += ", " + c;
  return "no default models found (PP-OCRv4 with det/ and rec/); searched " + where +
         ": run scripts/bootstrap.sh, install ocrforge (`cmake --install` puts them in "
         "<prefix>/share/ocrforge/models) or set OCRFORGE_MODEL_DIR";
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
