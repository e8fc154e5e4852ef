// Writes what `ocrforge ocr` produces per image: system_results.txt,
// <stem>_res.json, the visualisation, crops (--save_crop_res) and the
// auto-label file (--save_label). Files are created once, appended per image.
#pragma once
#include <fstream>
#include <string>

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

class OcrOutputs {
 public:
  // Creates the folders and opens the result files; throws Error naming a
  // folder or file that cannot be written.
  OcrOutputs(const OcrOutputOptions& options, const OcrParams& params);
  // Returns the path of the visualisation ("" when not written).
  std::string write(const std::string& image_path, const cv::Mat& bgr, const OcrResult& result);
  std::string system_results_path() const;

 private:
  OcrOutputOptions opt_;
  OcrParams params_;
  std::ofstream system_results_;
  std::ofstream labels_;
};

}  // namespace ocrforge
