// The distillation loss functions (PaddleOCR's DMLLoss, DistanceLoss and
// DKDLoss in ppocr/losses/basic_loss.py, KLCTCLogits in
// distillation_loss.py), on tensors; distill_loss_spec.h says which outputs
// of which models they compare.
#pragma once
#include <torch/torch.h>

#include <string>

namespace ocrforge {

// Deep mutual learning: the symmetric KL divergence between two models'
// outputs of the same shape (N x T x C logits for recognition).
// act "softmax" / "sigmoid" turns logits into probabilities first (+1e-10,
// as PaddleOCR); "" takes them as probabilities already.
// use_log true (PaddleOCR's rec recipe): (KL(p2 || p1) + KL(p1 || p2)) / 2,
// each summed over T and C and averaged over the batch.
// use_log false: PaddleOCR's KLJSLoss("kl"), eps 1e-5, averaged over everything.
// Gradients flow into both inputs (a frozen model's output has none).
torch::Tensor dml_loss(const torch::Tensor& out1, const torch::Tensor& out2, const std::string& act, bool use_log);

// L2 (mean squared error), L1 or smooth L1 between two features of the same
// shape, averaged over all elements.
torch::Tensor distance_loss(const torch::Tensor& a, const torch::Tensor& b, const std::string& mode);

// Decoupled knowledge distillation (DKD) of logits N x L x V against the
// class `target` N x L of each position: with p = softmax(logits / T),
//   TCKD = KL over {target class, all others} of the teacher's p against the student's,
//   NCKD = KL of the two distributions over the non-target classes
//          (softmax of logits / T - 1000 at the target),
// each summed over its classes, averaged over all N * L positions (as
// PaddleOCR: its padding mask is passed but not applied) and scaled by T^2;
// loss = alpha TCKD + beta NCKD. Gradients reach the student (and the
// teacher, when it is not frozen).
torch::Tensor dkd_loss(const torch::Tensor& student, const torch::Tensor& teacher, const torch::Tensor& target,
                       double temperature, double alpha, double beta);

// PP-OCRv4's DistillCTCLogits (KLCTCLogits, mode "mean"): the blank logit
// negated in both N x T x V CTC outputs, softmax at temperature 0.5,
// averaged over T, then sum(t * log((t + 1e-6) / (s + 1e-6) + 1e-6)) / N.
torch::Tensor ctc_logits_kl(const torch::Tensor& student, const torch::Tensor& teacher);

}  // namespace ocrforge
