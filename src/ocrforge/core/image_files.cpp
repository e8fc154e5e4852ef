#include "ocrforge/core/image_files.h"

#include <algorithm>
#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace fs = std::filesystem;

namespace ocrforge {

const std::vector<std::string>& image_extensions() {
  static const std::vector<std::string> exts = {".jpg", ".jpeg", ".png", ".bmp", ".tif",
                                                ".tiff", ".webp", ".jp2", ".pbm", ".pgm", ".ppm"};
  return exts;
}

std::vector<std::string> list_images(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error("image path '" + path + "' does not exist: check --image_dir");
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = to_lower(entry.path().extension().string());
    const auto& exts = image_extensions();
    if (std::find(exts.begin(), exts.end(), ext) != exts.end()) out.push_back(entry.path().string());
  }
  if (ec) throw Error("cannot list folder '" + path + "': " + ec.message());
  if (out.empty())
    throw Error("folder '" + path + "' holds no images (looked for jpg, png, bmp, tiff, webp)");
  std::sort(out.begin(), out.end());
  return out;
}

std::string path_stem(const std::string& path) { return fs::path(path).stem().string(); }
std::string path_filename(const std::string& path) { return fs::path(path).filename().string(); }

}  // namespace ocrforge
