// Text detection (PaddleOCR's predict_det): DB model on ONNX Runtime.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/infer/network.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"
#include "ocrforge/vision/det_resize.h"
#include "ocrforge/vision/text_box.h"

namespace ocrforge {

class TextDetector {
 public:
  // Throws Error when the model is missing or is not a DB detector
  // (1 input N x 3 x H x W, output N x 1 x H x W).
  TextDetector(const DetParams& params, const RuntimeParams& runtime);

  // `bgr`: 8-bit, 3 channels. Boxes in image coordinates, clockwise from
  // top-left, filtered like filter_tag_det_res; not sorted (see sort_boxes).
  // Safe to call from several threads at once (a server's requests share
  // one detector): the ORT session allows it and the stats are merged under
  // a lock.
  std::vector<TextBox> detect(const cv::Mat& bgr);
  // With the resize and post-processing given for this call instead of the
  // detector's own (per-request settings); the model is the same.
  std::vector<TextBox> detect(const cv::Mat& bgr, const DetResizeParams& resize, const DbPostParams& post);

  StageStats stats() const;
  void reset_stats();
  const Network& model() const { return *model_; }
  const DetParams& params() const { return params_; }

 private:
  DetParams params_;
  std::unique_ptr<Network> model_;
  mutable std::mutex stats_mutex_;
  StageStats stats_;

  // Input buffers kept between calls (det_preprocess_into): a few, for the
  // calls that run at once; one over kMaxKeptFloats is freed instead.
  struct Scratch {
    DetInput input;
    std::vector<unsigned char> resized;
  };
  std::unique_ptr<Scratch> take_scratch();
  void give_back_scratch(std::unique_ptr<Scratch> s);
  std::mutex scratch_mutex_;
  std::vector<std::unique_ptr<Scratch>> scratch_;
};

}  // namespace ocrforge
