// The distillation loss functions (PaddleOCR's DMLLoss and DistanceLoss in
// ppocr/losses/basic_loss.py), on tensors; distill_loss_spec.h says which
// outputs of which models they compare.
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

}  // namespace ocrforge
