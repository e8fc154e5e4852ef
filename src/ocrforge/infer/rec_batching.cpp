#include "ocrforge/infer/rec_batching.h"

#include <algorithm>
#include <numeric>

#include "ocrforge/core/error.h"
#include "ocrforge/vision/aspect_order.h"

namespace ocrforge {

int rec_input_width(const cv::Mat& crop, int image_h, int image_w, int width_step, int min_width) {
  if (image_h <= 0 || image_w <= 0 || width_step <= 0 || min_width < 0)
    throw Error("rec_input_width: image_h, image_w and width_step must be positive and min_width >= 0 "
                "(check --rec_image_shape / --rec_min_width)");
  const int floor = min_width > 0 ? std::min(min_width, image_w) : image_w;
  // float arithmetic as PaddleOCR's predict_rec (max_wh_ratio, then int()).
  const float ratio = std::max(static_cast<float>(floor) / static_cast<float>(image_h), aspect_ratio(crop));
  const int w = static_cast<int>(static_cast<float>(image_h) * ratio);
  if (w <= floor) return floor;
  if (w <= image_w) return w;
  return (w + width_step - 1) / width_step * width_step;
}

std::vector<RecBatch> plan_rec_batches(const std::vector<int>& widths, const std::vector<float>& ratios,
                                       int batch_num) {
  if (widths.size() != ratios.size())
    throw Error("plan_rec_batches: " + std::to_string(widths.size()) + " widths but " +
                std::to_string(ratios.size()) + " ratios");
  const size_t per = static_cast<size_t>(std::max(1, batch_num));
  std::vector<size_t> order(widths.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return widths[a] != widths[b] ? widths[a] < widths[b] : ratios[a] < ratios[b];
  });
  std::vector<RecBatch> batches;
  for (size_t i = 0; i < order.size();) {
    RecBatch b;
    b.width = widths[order[i]];
    while (i < order.size() && widths[order[i]] == b.width && b.items.size() < per) b.items.push_back(order[i++]);
    batches.push_back(std::move(b));
  }
  return batches;
}

}  // namespace ocrforge
