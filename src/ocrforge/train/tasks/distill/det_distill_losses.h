// The loss functions of PP-OCRv3's CML detection distillation on tensors
// (PaddleOCR ppocr/losses/distillation_loss.py DistillationDilaDBLoss,
// basic_loss.py DMLLoss / KLJSLoss); det_distill_loss_spec.h says which
// models' maps they compare. Maps are N x H x W probability maps.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/det/db_loss.h"

namespace ocrforge {

// The teacher's shrink map as a label: 1 where P > 0.3, then dilated with a
// 2x2 kernel of ones as cv2.dilate does (anchor at the kernel's centre
// (1, 1): each output pixel is the max of itself and its top, left and
// top-left neighbours, so text grows one pixel right and down; outside the
// image counts as 0). Float 0 / 1, N x H x W, no gradient.
torch::Tensor dilated_teacher_label(const torch::Tensor& teacher_shrink);

// DistillationDilaDBLoss for one (student, teacher) pair:
//   alpha * BalanceLoss(student shrink P, G, shrink_mask)
//   +       Dice(student binary B, G, shrink_mask),  G = dilated_teacher_label(teacher shrink)
// with `spec`'s alpha / ohem_ratio / main loss (PaddleOCR: DBLoss's defaults,
// so the balanced term is a Dice value). Scalar; gradients reach the student only.
torch::Tensor dila_db_loss(const torch::Tensor& student_shrink, const torch::Tensor& student_binary,
                           const torch::Tensor& teacher_shrink, const torch::Tensor& shrink_mask,
                           const DBLossSpec& spec);

// PaddleOCR's DMLLoss on two maps without use_log: KLJSLoss("kl") per pixel,
//   0.5 * (p2 * log((p2 + 1e-5) / (p1 + 1e-5) + 1e-5) + p1 * log((p1 + 1e-5) / (p2 + 1e-5) + 1e-5)),
// averaged over H x W: one value per sample (N). Only the p * log p terms of
// each map, not a two-class (p, 1 - p) divergence. act "sigmoid" /
// "softmax" (over the last axis) first, +1e-10, as DMLLoss.
torch::Tensor dml_maps_per_sample(const torch::Tensor& map1, const torch::Tensor& map2, const std::string& act);

}  // namespace ocrforge
