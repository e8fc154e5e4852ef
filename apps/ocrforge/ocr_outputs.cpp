#include "ocr_outputs.h"

#include <filesystem>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/vision/draw_ocr.h"

namespace fs = std::filesystem;

namespace ocrforge {

static void make_dir(const std::string& dir, const std::string& flag) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw Error("cannot create folder '" + dir + "' (" + flag + "): " + ec.message());
}

static void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw Error("cannot write '" + path + "'");
}

OcrOutputs::OcrOutputs(const OcrOutputOptions& options, const OcrParams& params) : opt_(options), params_(params) {
  make_dir(opt_.save_dir, "--draw_img_save_dir");
  if (opt_.save_crops) make_dir(opt_.crop_dir, "--crop_res_save_dir");
  system_results_.open(system_results_path(), std::ios::binary | std::ios::trunc);
  if (!system_results_) throw Error("cannot write '" + system_results_path() + "' (--draw_img_save_dir)");
  if (!opt_.label_file.empty()) {
    const fs::path parent = fs::path(opt_.label_file).parent_path();
    if (!parent.empty()) make_dir(parent.string(), "--save_label");
    labels_.open(opt_.label_file, std::ios::binary | std::ios::trunc);
    if (!labels_) throw Error("cannot write label file '" + opt_.label_file + "' (--save_label)");
  }
}

std::string OcrOutputs::system_results_path() const { return (fs::path(opt_.save_dir) / "system_results.txt").string(); }

// OpenCV writes by extension; anything it cannot encode is saved as .jpg.
static std::string vis_name(const std::string& image_path) {
  std::string name = path_filename(image_path);
  const std::string ext = to_lower(fs::path(name).extension().string());
  for (const char* ok : {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
    if (ext == ok) return name;
  return path_stem(image_path) + ".jpg";
}

std::string OcrOutputs::write(const std::string& image_path, const cv::Mat& bgr, const OcrResult& result) {
  system_results_ << system_results_line(image_path, result) << "\n";
  system_results_.flush();
  if (labels_.is_open()) {
    labels_ << label_file_line(image_path, opt_.label_file, result) << "\n";
    labels_.flush();
  }
  const std::string stem = path_stem(image_path);
  write_file((fs::path(opt_.save_dir) / (stem + "_res.json")).string(), result_json(image_path, result, params_));
  if (opt_.save_crops) {
    for (size_t i = 0; i < result.detected.size(); ++i) {
      if (result.detected[i].crop.empty()) continue;
      const std::string p = (fs::path(opt_.crop_dir) / (stem + "_crop_" + std::to_string(i) + ".jpg")).string();
      if (!cv::imwrite(p, result.detected[i].crop)) throw Error("cannot write crop '" + p + "'");
    }
  }
  if (!opt_.visualize) return "";
  // Draw on the decoded image; coordinates come back to its scale.
  const float s = result.image_size.width > 0 ? static_cast<float>(bgr.cols) / result.image_size.width : 1.f;
  std::vector<Quad> boxes;
  std::vector<std::string> texts;
  for (const auto& l : result.lines) {
    Quad q = l.box;
    for (auto& p : q) p *= s;
    boxes.push_back(q);
    texts.push_back(l.text);
  }
  const cv::Mat vis = draw_ocr_box_txt(bgr, boxes, texts, opt_.font_path);
  const std::string path = (fs::path(opt_.save_dir) / vis_name(image_path)).string();
  if (!cv::imwrite(path, vis)) throw Error("cannot write visualisation '" + path + "'");
  return path;
}

}  // namespace ocrforge
