// SARLoss (sar_loss.h).
#include "ocrforge/train/tasks/rec/sar_loss.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

torch::Tensor sar_loss(const torch::Tensor& logits, const torch::Tensor& label_sar, int64_t ignore_index) {
  if (logits.dim() != 3 || label_sar.dim() != 2 || logits.size(0) != label_sar.size(0) ||
      logits.size(1) != label_sar.size(1))
    throw Error("SARLoss: logits N x L x classes and label_sar N x L disagree (" + std::string(c10::str(logits.sizes())) +
                " vs " + c10::str(label_sar.sizes()) + ")");
  const int64_t classes = logits.size(2);
  const auto predict = logits.slice(1, 0, -1).to(torch::kFloat32).reshape({-1, classes});
  const auto target = label_sar.slice(1, 1).to(torch::kLong).reshape({-1});
  const auto kept = target != ignore_index;
  if ((target.lt(0) | target.ge(classes)).logical_and(kept).any().item<bool>())
    throw Error("SARLoss: a label index is outside the " + std::to_string(classes) +
                " prediction classes and is not ignore_index " + std::to_string(ignore_index));
  return torch::nn::functional::cross_entropy(
      predict, target, torch::nn::functional::CrossEntropyFuncOptions().ignore_index(ignore_index));
}

}  // namespace ocrforge
