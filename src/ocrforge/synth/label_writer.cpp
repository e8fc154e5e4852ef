#include "ocrforge/synth/label_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace fs = std::filesystem;

namespace ocrforge {

void prepare_output_dir(const std::string& out_dir) {
  if (out_dir.empty()) throw Error("no output folder given (--out)");
  std::error_code ec;
  const fs::path images = fs::path(out_dir) / "images";
  fs::create_directories(images, ec);
  if (ec || !fs::is_directory(images))
    throw Error("output folder '" + out_dir + "' cannot be created (" +
                (ec ? ec.message() : std::string("a file is in the way")) + "); check --out");
  const fs::path probe = fs::path(out_dir) / ".ocrforge_write_test";
  {
    std::ofstream f(probe, std::ios::binary | std::ios::trunc);
    f << "x";
    if (!f.good()) throw Error("output folder '" + out_dir + "' is not writable; check --out and its permissions");
  }
  fs::remove(probe, ec);
}

std::string sample_relative_path(long index, const std::string& ext) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "images/%08ld.", index);
  return buf + ext;
}

void write_sample_image(const std::string& path, const cv::Mat& image, int jpeg_quality) {
  const std::string ext = to_lower(fs::path(path).extension().string());
  std::vector<int> opts;
  if (ext == ".jpg" || ext == ".jpeg") opts = {cv::IMWRITE_JPEG_QUALITY, jpeg_quality};
  else if (ext == ".png") opts = {cv::IMWRITE_PNG_COMPRESSION, 3};  // fast; size matters less than speed here
  bool ok = false;
  try {
    ok = cv::imwrite(path, image, opts);
  } catch (const cv::Exception& e) {
    throw Error("cannot write image '" + path + "': " + e.what());
  }
  if (!ok) throw Error("cannot write image '" + path + "' (disk full or no permission?)");
}

std::string rec_label_line(const std::string& rel_path, const std::string& text) { return rel_path + "\t" + text; }

std::string det_label_line(const std::string& rel_path, const std::vector<DetLine>& lines, cv::Size image_size) {
  // Written by hand to match json.dumps(..., ensure_ascii=False): ", " and
  // ": " separators, "transcription" before "points", UTF-8 kept.
  std::string s = rel_path + "\t[";
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = lines[i].ignore ? "###" : lines[i].text;
    s += (i ? ", " : "") + std::string("{\"transcription\": ") +
         nlohmann::json(t).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + ", \"points\": [";
    for (size_t k = 0; k < lines[i].quad.size(); ++k) {
      const long x = std::clamp(std::lround(lines[i].quad[k].x), 0L, static_cast<long>(image_size.width - 1));
      const long y = std::clamp(std::lround(lines[i].quad[k].y), 0L, static_cast<long>(image_size.height - 1));
      s += (k ? ", [" : "[") + std::to_string(x) + ", " + std::to_string(y) + "]";
    }
    s += "]}";
  }
  return s + "]";
}

void write_label_file(const std::string& path, const std::vector<std::string>& lines) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    for (const auto& l : lines) out << l << '\n';
    out.flush();
    if (!out.good()) throw Error("cannot write label file '" + tmp + "' (disk full or no permission?)");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

}  // namespace ocrforge
