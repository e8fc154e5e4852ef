#include "ocrforge/train/tasks/distill/distill_losses.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

torch::Tensor activate(const torch::Tensor& x, const std::string& act) {
  if (act == "softmax") return torch::softmax(x, -1) + 1e-10;
  if (act == "sigmoid") return torch::sigmoid(x) + 1e-10;
  if (act.empty()) return x;
  throw UsageError("DistillationDMLLoss.act: '" + act + "' (known: softmax, sigmoid)");
}

// sum(target * (log(target + eps) - log_input)) / batch: KL(target || input).
torch::Tensor kl_per_sample(const torch::Tensor& log_input, const torch::Tensor& target) {
  const auto loss = target * (torch::log(target + 1e-10) - log_input);
  return loss.sum() / static_cast<double>(loss.size(0));
}

}  // namespace

torch::Tensor dml_loss(const torch::Tensor& out1, const torch::Tensor& out2, const std::string& act, bool use_log) {
  if (out1.sizes() != out2.sizes())
    throw Error("DistillationDMLLoss: the two outputs differ in shape (" + std::string(c10::str(out1.sizes())) +
                " vs " + c10::str(out2.sizes()) + ")");
  const auto p1 = activate(out1, act), p2 = activate(out2, act);
  if (use_log) return (kl_per_sample(torch::log(p1), p2) + kl_per_sample(torch::log(p2), p1)) / 2.0;
  const double eps = 1e-5;
  auto loss = p2 * torch::log((p2 + eps) / (p1 + eps) + eps) + p1 * torch::log((p1 + eps) / (p2 + eps) + eps);
  return (loss * 0.5).mean();
}

torch::Tensor distance_loss(const torch::Tensor& a, const torch::Tensor& b, const std::string& mode) {
  if (a.sizes() != b.sizes())
    throw Error("DistillationDistanceLoss: the two features differ in shape (" + std::string(c10::str(a.sizes())) +
                " vs " + c10::str(b.sizes()) + ")");
  if (mode == "l2") return torch::mse_loss(a, b);
  if (mode == "l1") return torch::l1_loss(a, b);
  if (mode == "smooth_l1") return torch::smooth_l1_loss(a, b);
  throw UsageError("DistillationDistanceLoss.mode: '" + mode + "' (known: l1, l2, smooth_l1)");
}

}  // namespace ocrforge
