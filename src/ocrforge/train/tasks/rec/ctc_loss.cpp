#include "ocrforge/train/tasks/rec/ctc_loss.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

torch::Tensor ctc_loss(const torch::Tensor& logits, const torch::Tensor& labels, const torch::Tensor& label_lengths,
                       bool use_focal_loss) {
  if (logits.dim() != 3) throw Error("ctc_loss: logits must be N x T x C, got " + std::to_string(logits.dim()) + "-D");
  const int64_t n = logits.size(0), t = logits.size(1);
  if (labels.dim() != 2 || labels.size(0) != n)
    throw Error("ctc_loss: labels must be N x S with N = " + std::to_string(n) + " (the batch of the logits)");
  if (label_lengths.dim() != 1 || label_lengths.size(0) != n)
    throw Error("ctc_loss: label_lengths must hold N = " + std::to_string(n) + " values");
  const auto lengths = label_lengths.to(torch::kCPU, torch::kLong);
  if (n > 0 && (lengths.min().item<int64_t>() < 0 || lengths.max().item<int64_t>() > labels.size(1)))
    throw Error("ctc_loss: a label length is outside [0, " + std::to_string(labels.size(1)) + "]");

  // Time-major log-probabilities T x N x C, as CTC wants them.
  const auto log_probs = torch::log_softmax(logits.to(torch::kFloat), 2).transpose(0, 1);
  const auto input_lengths = torch::full({n}, t, torch::TensorOptions().dtype(torch::kLong));
  auto loss = torch::ctc_loss(log_probs, labels.to(logits.device(), torch::kLong), input_lengths, lengths,
                              /*blank=*/0, at::Reduction::None, /*zero_infinity=*/true);  // N
  if (use_focal_loss) loss = loss * torch::square(1.0 - torch::exp(-loss));
  return loss.mean();
}

}  // namespace ocrforge
