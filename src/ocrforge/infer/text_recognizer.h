// Text recognition (PaddleOCR's predict_rec): CTC model on ONNX Runtime.
#pragma once
#include <memory>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/charset.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"
#include "ocrforge/vision/ctc_decode.h"

namespace ocrforge {

class TextRecognizer {
 public:
  // Throws Error when the model or dictionary is missing, the model is not a
  // CTC recogniser (input N x 3 x H x W, output N x T x C), or the dictionary
  // does not fit the model's class count.
  TextRecognizer(const RecParams& params, const RuntimeParams& runtime);

  // Crops (8-bit BGR) -> text and confidence, in the order given. Each crop
  // gets its own input width (rec_input_width); up to batch_num crops of equal
  // width share an ORT call, so results do not depend on batch_num.
  std::vector<RecText> recognize(const std::vector<cv::Mat>& crops);

  const StageStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  const OrtModel& model() const { return *model_; }
  const Charset& charset() const { return charset_; }

 private:
  RecParams params_;
  std::unique_ptr<OrtModel> model_;
  Charset charset_;
  StageStats stats_;
};

}  // namespace ocrforge
