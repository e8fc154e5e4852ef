// Writes what `ocrforge ocr` produces per image: system_results.txt,
// <stem>_res.json, the visualisation, crops (--save_crop_res) and the
// auto-label file (--save_label).
//
// Nothing is ever half-written: per-image files are written to a temp name
// and renamed; system_results.txt and the label file are built under a temp
// name and renamed into place by finish(). One run per output folder at a
// time (a lock file naming the holder). Inputs sharing a stem (a.jpg, a.png)
// get distinct outputs (see output_stems).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/output_paths.h"  // refuse_output_in_input
#include "ocrforge/infer/ocr_pipeline.h"

namespace ocrforge {

struct OcrOutputOptions {
  std::string save_dir = "./inference_results";
  bool visualize = true;
  std::string font_path;
  bool save_crops = false;
  std::string crop_dir = "./output";
  std::string label_file;  // "" = no auto-label file
};

// The font the visualisation will use. Warns on stderr when `font_path` (set
// by --vis_font_path) does not exist, or when no font is found at all: text
// is then drawn with OpenCV's Hershey font, which shows non-Latin text as
// '?'. Returns the path to use ("" = default / Hershey).
std::string vis_font_or_warn(const std::string& font_path);

// The names of a document page's per-image files, as PaddleOCR names a
// PDF's pages: system_results.txt calls page 3 (0-based 2) of scan.pdf
// "scan.pdf_2"; its _res.json is scan_2_res.json, with input_path scan.pdf
// and page_index 2; its visualisation scan_2.png.
struct PageOutputName {
  std::string result_name;  // "scan.pdf_2"
  std::string stem;         // "scan_2" (_res.json, crops)
  std::string vis_file;     // "scan_2.png"
  std::string input_path;   // the document's path
  int page_index = 0;
};

class OcrOutputs {
 public:
  // Creates the folders, takes the folder lock, removes temp files a killed
  // run left, and starts the result files; throws Error naming a folder or
  // file that cannot be written, or the run holding the folder.
  OcrOutputs(const OcrOutputOptions& options, const OcrParams& params, const std::vector<std::string>& images);
  // Writes one image's files; returns the path of the visualisation ("" when
  // not written). Throws Error for this image's files; RunAborted when a
  // file shared by all images (system_results.txt) cannot be written.
  std::string write(const std::string& image_path, const cv::Mat& bgr, const OcrResult& result);
  // Names the outputs of input `key` as a document page (instead of by its
  // path); a page gets no --save_label line (a label file lists images).
  void set_page_name(const std::string& key, const PageOutputName& name) { pages_[key] = name; }
  // Renames system_results.txt (and the label file) into place.
  void finish();
  std::string system_results_path() const;

 private:
  OcrOutputOptions opt_;
  OcrParams params_;
  std::map<std::string, std::string> stems_;
  std::map<std::string, PageOutputName> pages_;
  std::unique_ptr<FolderLock> lock_;
  std::unique_ptr<StagedFile> system_results_;
  std::unique_ptr<StagedFile> labels_;
};

}  // namespace ocrforge
