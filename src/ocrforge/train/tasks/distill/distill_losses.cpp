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

namespace {

// Two shapes that must agree, or an Error naming the loss.
void same_shape(const torch::Tensor& a, const torch::Tensor& b, const std::string& loss) {
  if (a.sizes() != b.sizes())
    throw Error(loss + ": the two outputs differ in shape (" + std::string(c10::str(a.sizes())) + " vs " +
                c10::str(b.sizes()) + ")");
}

// sum over classes of label * (log(label + 1e-10) - log_x), averaged over rows.
torch::Tensor kl_rows(const torch::Tensor& log_x, const torch::Tensor& label) {
  return (label * (torch::log(label + 1e-10) - log_x)).sum(1).mean();
}

}  // namespace

torch::Tensor dkd_loss(const torch::Tensor& student, const torch::Tensor& teacher, const torch::Tensor& target,
                       double temperature, double alpha, double beta) {
  same_shape(student, teacher, "DistillationDKDLoss");
  const int64_t classes = student.size(-1);
  const torch::Tensor s = student.reshape({-1, classes}).to(torch::kFloat);
  const torch::Tensor t = teacher.reshape({-1, classes}).to(torch::kFloat);
  const torch::Tensor idx = target.reshape({-1}).to(torch::kLong);
  if (idx.size(0) != s.size(0))
    throw Error("DistillationDKDLoss: " + std::to_string(idx.size(0)) + " targets for " + std::to_string(s.size(0)) +
                " positions");
  const torch::Tensor gt = torch::one_hot(idx, classes).to(s.dtype());
  const torch::Tensor other = 1 - gt;
  const auto split = [&](const torch::Tensor& p) {
    return torch::cat({(p * gt).sum(1, true), (p * other).sum(1, true)}, 1);
  };
  const double T = temperature;
  const torch::Tensor ps = split(torch::softmax(s / T, 1)), pt = split(torch::softmax(t / T, 1));
  const torch::Tensor tckd = kl_rows(torch::log(ps), pt) * (T * T);
  const torch::Tensor pt2 = torch::softmax(t / T - 1000.0 * gt, 1);
  const torch::Tensor log_ps2 = torch::log_softmax(s / T - 1000.0 * gt, 1);
  const torch::Tensor nckd = kl_rows(log_ps2, pt2) * (T * T);
  return alpha * tckd + beta * nckd;
}

torch::Tensor ctc_logits_kl(const torch::Tensor& student, const torch::Tensor& teacher) {
  same_shape(student, teacher, "DistillCTCLogits");
  torch::Tensor sign = torch::ones({student.size(-1)}, student.options().dtype(torch::kFloat));
  sign[0] = -1;  // PaddleOCR's blank_mask: the blank logit negated
  const double eps = 1e-6, t = 0.5;
  const torch::Tensor s = torch::softmax(student.to(torch::kFloat) * sign / t, -1).mean(1);
  const torch::Tensor q = torch::softmax(teacher.to(torch::kFloat) * sign / t, -1).mean(1);
  const torch::Tensor loss = q * torch::log((q + eps) / (s + eps) + eps);
  return loss.sum() / static_cast<double>(loss.size(0));
}

}  // namespace ocrforge
