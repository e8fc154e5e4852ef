// Text-line direction classifier (PaddleOCR's predict_cls): 0 or 180 degrees.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/infer/network.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"

namespace ocrforge {

struct ClsResult {
  std::string label;  // one of ClsParams::label_list
  float score = 0.f;
  bool rotated = false;  // the crop was turned by 180 degrees (a "180" label above thresh)
};

class TextClassifier {
 public:
  // Throws Error when the model is missing or its output is not N x labels.
  TextClassifier(const ClsParams& params, const RuntimeParams& runtime);

  // Classifies each crop; a crop whose label contains "180" with score above
  // cls_thresh is rotated by 180 degrees in place. Safe to call from several
  // threads at once (stats merged under a lock).
  std::vector<ClsResult> classify(std::vector<cv::Mat>& crops);

  StageStats stats() const;
  void reset_stats();
  const Network& model() const { return *model_; }

 private:
  ClsParams params_;
  std::unique_ptr<Network> model_;
  mutable std::mutex stats_mutex_;
  StageStats stats_;
};

}  // namespace ocrforge
