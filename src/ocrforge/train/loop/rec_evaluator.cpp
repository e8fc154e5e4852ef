#include "ocrforge/train/loop/rec_evaluator.h"

#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/data/rec_loader.h"
#include "ocrforge/vision/ctc_decode.h"
#include "ocrforge/vision/rec_metric.h"

namespace ocrforge {

std::vector<std::string> decode_logits(const torch::Tensor& logits, const Charset& charset) {
  torch::Tensor probs = torch::softmax(logits.detach().to(torch::kCPU, torch::kFloat), 2).contiguous();
  const int n = static_cast<int>(probs.size(0)), t = static_cast<int>(probs.size(1)), c = static_cast<int>(probs.size(2));
  const float* data = probs.data_ptr<float>();
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(ctc_greedy_decode(data + static_cast<size_t>(i) * t * c, t, c, charset).text);
  return out;
}

RecEvalResult evaluate_rec(const std::function<torch::Tensor(const torch::Tensor&)>& forward, RecDataLoader& loader,
                           const Charset& charset, bool ignore_space,
                           const std::function<void(size_t, size_t)>& progress) {
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  RecMetric metric(ignore_space);
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  RecBatch batch;
  while (loader.next(&batch)) {
    const auto texts = decode_logits(forward(batch.images), charset);
    for (size_t i = 0; i < texts.size(); ++i) metric.add(texts[i], batch.texts[i]);
    if (progress) progress(++done, total);
  }
  RecEvalResult r;
  r.acc = metric.acc();
  r.norm_edit_dis = metric.norm_edit_dis();
  r.samples = metric.count();
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

}  // namespace ocrforge
