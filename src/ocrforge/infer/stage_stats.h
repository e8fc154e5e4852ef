// Time spent per stage by one predictor, for --benchmark reports and the
// "share of time outside ORT" figure. Milliseconds, summed over calls.
#pragma once

namespace ocrforge {

struct StageStats {
  long calls = 0;   // predictor calls (det: images; cls/rec: batches)
  long images = 0;  // images or crops processed
  double preprocess_ms = 0, inference_ms = 0, postprocess_ms = 0;
  double total_ms() const { return preprocess_ms + inference_ms + postprocess_ms; }
  StageStats& operator+=(const StageStats& o) {
    calls += o.calls;
    images += o.images;
    preprocess_ms += o.preprocess_ms;
    inference_ms += o.inference_ms;
    postprocess_ms += o.postprocess_ms;
    return *this;
  }
};

}  // namespace ocrforge
