// Text detection straight from a det training checkpoint on LibTorch
// (`ocrforge infer det --det_model_dir <save_model_dir>`), with the same
// resize and DB post-processing as the ONNX path, so a detector can be
// checked before export. No torch types in this header.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/vision/db_postprocess.h"
#include "ocrforge/vision/det_resize.h"
#include "ocrforge/vision/text_box.h"

namespace ocrforge {

class CheckpointDetector {
 public:
  // Rebuilds the network from the config stored in the checkpoint, loads the
  // weights; a folder uses best_accuracy.ckpt, else latest.ckpt. Error
  // naming the file when it is not a det checkpoint.
  CheckpointDetector(const std::string& checkpoint, int num_threads, DetResizeParams resize, DbPostParams post);
  ~CheckpointDetector();

  // Boxes in `bgr`'s pixels (det_preprocess -> forward -> db_postprocess).
  std::vector<TextBox> detect(const cv::Mat& bgr);
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace ocrforge
