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

static bool has_image_extension(const fs::path& p, const std::vector<std::string>& also) {
  const std::string ext = to_lower(p.extension().string());
  const auto& exts = image_extensions();
  return std::find(exts.begin(), exts.end(), ext) != exts.end() || std::find(also.begin(), also.end(), ext) != also.end();
}

std::vector<std::string> list_images(const std::string& path, const std::vector<std::string>& also) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw Error("image path '" + path + "' cannot be read: " + ec.message() + ": check --image_dir");
  if (!fs::exists(st)) throw Error("image path '" + path + "' does not exist: check --image_dir");
  if (!fs::is_directory(st)) return {path};
  std::vector<std::string> out;
  // Every call takes an error_code: the throwing forms end the whole listing
  // on one bad entry (a symlink loop, a dangling link, a file removed while
  // listing).
  fs::directory_iterator it(path, ec), end;
  if (ec) throw Error("cannot list folder '" + path + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (!has_image_extension(it->path(), also)) continue;
    std::error_code entry_ec;
    const fs::file_status s = it->status(entry_ec);
    // An image-named entry whose target cannot be resolved (a symlink loop, a
    // dangling link) is kept: the per-image loop reports it by name, so the
    // user learns about it and the other images are still read.
    if (entry_ec || fs::is_regular_file(s) || !fs::exists(s)) out.push_back(it->path().string());
  }
  if (ec) throw Error("cannot list folder '" + path + "': " + ec.message());
  if (out.empty())
    throw Error("folder '" + path + "' holds no images (looked for jpg, png, bmp, tiff, webp" +
                (also.empty() ? std::string() : ", " + also.front().substr(1)) + ")");
  std::sort(out.begin(), out.end());
  return out;
}

std::string path_stem(const std::string& path) { return fs::path(path).stem().string(); }
std::string path_filename(const std::string& path) { return fs::path(path).filename().string(); }

}  // namespace ocrforge
