// NRTRLoss (nrtr_loss.h).
#include "ocrforge/train/tasks/rec/nrtr_loss.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

torch::Tensor nrtr_loss(const torch::Tensor& logits, const torch::Tensor& label_gtc, const torch::Tensor& length,
                        bool smoothing) {
  if (logits.dim() != 3 || label_gtc.dim() != 2 || logits.size(0) != label_gtc.size(0))
    throw Error("NRTRLoss: logits N x T x V and label_gtc N x L expected");
  const int64_t m = length.max().item<int64_t>();
  if (logits.size(1) != m + 1 || label_gtc.size(1) < m + 2)
    throw Error("NRTRLoss: " + std::to_string(logits.size(1)) + " predicted steps for a longest text of " +
                std::to_string(m) + " (expected " + std::to_string(m + 1) + ")");
  const int64_t classes = logits.size(2);
  const auto pred = logits.reshape({-1, classes}).to(torch::kFloat);
  const auto tgt = label_gtc.narrow(1, 1, m + 1).reshape({-1}).to(pred.device());
  const auto keep = tgt.ne(0);
  if (!smoothing)
    return torch::nn::functional::cross_entropy(pred, tgt, torch::nn::functional::CrossEntropyFuncOptions().ignore_index(0));
  const double eps = 0.1;
  const auto one_hot = torch::one_hot(tgt, classes).to(torch::kFloat);
  const auto target = one_hot * (1.0 - eps) + (1.0 - one_hot) * (eps / static_cast<double>(classes - 1));
  const auto per_step = -(target * torch::log_softmax(pred, 1)).sum(1);
  return per_step.masked_select(keep).mean();
}

}  // namespace ocrforge
