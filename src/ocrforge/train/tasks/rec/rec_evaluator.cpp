#include "ocrforge/train/tasks/rec/rec_evaluator.h"

namespace ocrforge {

std::vector<RecText> decode_logit_texts(const torch::Tensor& logits, const Charset& charset) {
  torch::Tensor probs = torch::softmax(logits.detach().to(torch::kCPU, torch::kFloat), 2).contiguous();
  const int n = static_cast<int>(probs.size(0)), t = static_cast<int>(probs.size(1)), c = static_cast<int>(probs.size(2));
  const float* data = probs.data_ptr<float>();
  std::vector<RecText> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(ctc_greedy_decode(data + static_cast<size_t>(i) * t * c, t, c, charset));
  return out;
}

std::vector<std::string> decode_logits(const torch::Tensor& logits, const Charset& charset) {
  std::vector<std::string> out;
  for (RecText& r : decode_logit_texts(logits, charset)) out.push_back(std::move(r.text));
  return out;
}

}  // namespace ocrforge
