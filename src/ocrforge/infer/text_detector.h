// Text detection (PaddleOCR's predict_det): DB model on ONNX Runtime.
#pragma once
#include <memory>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"
#include "ocrforge/vision/text_box.h"

namespace ocrforge {

class TextDetector {
 public:
  // Throws Error when the model is missing or is not a DB detector
  // (1 input N x 3 x H x W, output N x 1 x H x W).
  TextDetector(const DetParams& params, const RuntimeParams& runtime);

  // `bgr`: 8-bit, 3 channels. Boxes in image coordinates, clockwise from
  // top-left, filtered like filter_tag_det_res; not sorted (see sort_boxes).
  std::vector<TextBox> detect(const cv::Mat& bgr);

  const StageStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  const OrtModel& model() const { return *model_; }
  const DetParams& params() const { return params_; }

 private:
  DetParams params_;
  std::unique_ptr<OrtModel> model_;
  StageStats stats_;
};

}  // namespace ocrforge
