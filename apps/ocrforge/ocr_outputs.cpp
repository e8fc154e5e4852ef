#include "ocr_outputs.h"

#include <cstdio>
#include <filesystem>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "image_loop.h"
#include "ocrforge/core/control_chars.h"
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

std::string vis_font_or_warn(const std::string& font_path) { return checked_font_path(font_path, "ocrforge ocr"); }

// Removes ".<name>.tmp.XXXXXX" files (write_file_atomic / StagedFile temp
// names) that a killed run left in `dir`: one listing, whatever the number of
// images.
static void remove_our_temp_files(const std::string& dir) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const size_t tmp = name.rfind(".tmp.");
    if (name.size() > 1 && name[0] == '.' && tmp != std::string::npos && tmp > 0 && name.size() - tmp == 11)
      stale.push_back(it->path());
  }
  for (const auto& p : stale) fs::remove(p, ec);
}

OcrOutputs::OcrOutputs(const OcrOutputOptions& options, const OcrParams& params,
                       const std::vector<std::string>& images)
    : opt_(options), params_(params), stems_(output_stems(images)) {
  make_dir(opt_.save_dir, "--draw_img_save_dir");
  lock_ = std::make_unique<FolderLock>(opt_.save_dir, "--draw_img_save_dir");
  if (opt_.save_crops) make_dir(opt_.crop_dir, "--crop_res_save_dir");
  // We hold the folder: any temp file there is from a run that was killed.
  remove_our_temp_files(opt_.save_dir);
  system_results_ = std::make_unique<StagedFile>(system_results_path());
  if (!opt_.label_file.empty()) {
    const fs::path parent = fs::path(opt_.label_file).parent_path();
    if (!parent.empty()) make_dir(parent.string(), "--save_label");
    labels_ = std::make_unique<StagedFile>(opt_.label_file);
  }
}

std::string OcrOutputs::system_results_path() const { return (fs::path(opt_.save_dir) / "system_results.txt").string(); }

// OpenCV writes by extension; anything it cannot encode is saved as .jpg.
static std::string vis_name(const std::string& image_path, const std::string& stem) {
  std::string name = path_filename(image_path);
  const std::string ext = to_lower(fs::path(name).extension().string());
  for (const char* ok : {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
    if (ext == ok) return name;
  return stem + ".jpg";
}

// Encodes in memory, then writes atomically: an encoder or disk error is an
// Error naming the file, and no half image is ever left.
static void write_image(const std::string& path, const cv::Mat& img, const std::string& what) {
  std::vector<uchar> buf;
  const std::string ext = fs::path(path).extension().string();
  bool ok = false;
  try {
    ok = cv::imencode(ext, img, buf);
  } catch (const cv::Exception& e) {
    throw Error("cannot encode " + what + " '" + path + "': " + e.what());
  }
  if (!ok) throw Error("cannot encode " + what + " '" + path + "'");
  write_file_atomic(path, std::string(buf.begin(), buf.end()), false);
}

std::string OcrOutputs::write(const std::string& image_path, const cv::Mat& bgr, const OcrResult& result) {
  auto it = stems_.find(image_path);
  const auto page = pages_.find(image_path);
  const PageOutputName* page_name = page != pages_.end() ? &page->second : nullptr;
  // Before any file of this image: a name with a newline or tab would split
  // its line (and a label path must name the file as it is).
  require_line_safe(page_name ? page_name->result_name : path_filename(image_path), "image name",
                    "system_results.txt");
  if (labels_ && !page_name) require_line_safe(image_path, "image path", "the --save_label file");
  const std::string stem = page_name ? page_name->stem : it != stems_.end() ? it->second : path_stem(image_path);
  // This image's own files first: system_results.txt lists an image only
  // once everything it refers to exists.
  write_file_atomic((fs::path(opt_.save_dir) / (stem + "_res.json")).string(),
                    page_name ? result_json(page_name->input_path, result, params_, page_name->page_index)
                              : result_json(image_path, result, params_),
                    false);
  if (opt_.save_crops) {
    for (size_t i = 0; i < result.detected.size(); ++i) {
      if (result.detected[i].crop.empty()) continue;
      write_image((fs::path(opt_.crop_dir) / (stem + "_crop_" + std::to_string(i) + ".jpg")).string(),
                  result.detected[i].crop, "crop");
    }
  }
  std::string vis_path;
  if (opt_.visualize) {
    // Drawn on the decoded image; coordinates come back to its scale.
    const cv::Mat vis = result_visualisation(bgr, result, opt_.font_path);
    vis_path = (fs::path(opt_.save_dir) / (page_name ? page_name->vis_file : vis_name(image_path, stem))).string();
    write_image(vis_path, vis, "visualisation");
  }
  try {
    system_results_->append(system_results_line(page_name ? page_name->result_name : image_path, result) + "\n");
    if (labels_ && !page_name) labels_->append(label_file_line(image_path, opt_.label_file, result) + "\n");
  } catch (const Error& e) {
    throw RunAborted(std::string(e.what()) + "; stopping, as every later image would be lost the same way");
  }
  return vis_path;
}

void OcrOutputs::finish() {
  try {
    system_results_->commit();
    if (labels_) labels_->commit();
  } catch (const Error& e) {
    throw RunAborted(e.what());
  }
}

}  // namespace ocrforge
