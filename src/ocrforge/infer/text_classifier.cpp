#include "ocrforge/infer/text_classifier.h"

#include "ocrforge/infer/checkpoint_networks.h"

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/vision/aspect_order.h"
#include "ocrforge/vision/crop.h"
#include "ocrforge/vision/rec_resize.h"

namespace ocrforge {

TextClassifier::TextClassifier(const ClsParams& params, const RuntimeParams& runtime)
    : params_(params), model_(open_network(params.model_dir, runtime, "cls", "--cls_model_dir")) {
  const auto& in = model_->input_shape();
  const auto& out = model_->output_shape();
  const auto labels = static_cast<int64_t>(params.label_list.size());
  if (in.size() != 4 || out.size() != 2 || (out[1] > 0 && out[1] != labels))
    throw Error("'" + model_->path() + "' is not a direction classifier for " + std::to_string(labels) +
                " labels: input " + shape_to_string(in) + ", output " + shape_to_string(out) +
                "; check --cls_model_dir and --label_list");
}

std::vector<ClsResult> TextClassifier::classify(std::vector<cv::Mat>& crops) {
  std::vector<ClsResult> results(crops.size());
  const std::vector<size_t> order = order_by_aspect_ratio(crops);
  const int h = params_.image_h, w = params_.image_w;
  const size_t per = static_cast<size_t>(3) * h * w;
  const size_t batch_num = static_cast<size_t>(std::max(1, params_.batch_num));
  std::vector<float> buffer;
  StageStats call;
  for (size_t begin = 0; begin < order.size(); begin += batch_num) {
    const size_t end = std::min(order.size(), begin + batch_num);
    Stopwatch sw;
    buffer.assign(per * (end - begin), 0.f);
    for (size_t i = begin; i < end; ++i) rec_resize_normalize(crops[order[i]], h, w, buffer.data() + per * (i - begin));
    call.preprocess_ms += sw.elapsed_ms();

    double run_ms = 0;
    TensorView out = model_->run(buffer.data(), {static_cast<int64_t>(end - begin), 3, h, w}, &run_ms);
    call.inference_ms += run_ms;

    sw.reset();
    const int64_t labels = static_cast<int64_t>(params_.label_list.size());
    if (out.shape.size() != 2 || out.shape[1] != labels)
      throw Error("cls model '" + model_->path() + "' returned " + shape_to_string(out.shape) + " for " +
                  std::to_string(labels) + " labels; check --label_list");
    for (size_t i = begin; i < end; ++i) {
      const float* p = out.data + static_cast<size_t>(i - begin) * static_cast<size_t>(labels);
      const auto best = static_cast<size_t>(std::max_element(p, p + labels) - p);
      ClsResult& r = results[order[i]];
      r.label = params_.label_list[best];
      r.score = p[best];
      r.rotated = r.label.find("180") != std::string::npos && r.score > params_.thresh;
      if (r.rotated) crops[order[i]] = rotate_180(crops[order[i]]);
    }
    call.postprocess_ms += sw.elapsed_ms();
    call.calls += 1;
    call.images += static_cast<long>(end - begin);
  }
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ += call;
  return results;
}

StageStats TextClassifier::stats() const {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  return stats_;
}

void TextClassifier::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mutex_);
  stats_ = {};
}

}  // namespace ocrforge
