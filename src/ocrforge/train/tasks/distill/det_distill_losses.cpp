#include "ocrforge/train/tasks/distill/det_distill_losses.h"

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {
constexpr double kTeacherThresh = 0.3;  // PaddleOCR's fixed threshold on the teacher map
constexpr double kBalanceEps = 1e-6;    // BalanceLoss / DiceLoss defaults inside DBLoss

void check_maps(const torch::Tensor& a, const torch::Tensor& b, const char* what) {
  if (!a.defined() || !b.defined() || a.dim() != 3 || a.sizes() != b.sizes())
    throw Error(std::string(what) + ": expected two N x H x W maps of the same shape, got " +
                (a.defined() ? c10::str(a.sizes()) : std::string("nothing")) + " and " +
                (b.defined() ? c10::str(b.sizes()) : std::string("nothing")));
}
}  // namespace

torch::Tensor dilated_teacher_label(const torch::Tensor& teacher_shrink) {
  torch::NoGradGuard no_grad;
  if (!teacher_shrink.defined() || teacher_shrink.dim() != 3)
    throw Error("DistillationDilaDBLoss: expected the teacher's N x H x W shrink map");
  const auto bin = (teacher_shrink > kTeacherThresh).to(torch::kFloat32).unsqueeze(1);
  // cv2.dilate with a 2x2 kernel: out(y, x) = max over in(y-1..y, x-1..x).
  // Padding the top row and left column with 0 keeps a 2x2 window per pixel.
  const auto padded = torch::constant_pad_nd(bin, {1, 0, 1, 0}, 0.0);
  return torch::max_pool2d(padded, {2, 2}, {1, 1}).squeeze(1).to(teacher_shrink.scalar_type());
}

torch::Tensor dila_db_loss(const torch::Tensor& student_shrink, const torch::Tensor& student_binary,
                           const torch::Tensor& teacher_shrink, const torch::Tensor& shrink_mask,
                           const DBLossSpec& spec) {
  check_maps(student_shrink, teacher_shrink, "DistillationDilaDBLoss");
  check_maps(student_binary, shrink_mask, "DistillationDilaDBLoss");
  check_maps(student_shrink, shrink_mask, "DistillationDilaDBLoss");
  const torch::Tensor gt = dilated_teacher_label(teacher_shrink);
  torch::Tensor main;
  if (spec.main_loss_type == "BCELoss") {
    const auto bce = torch::binary_cross_entropy(student_shrink, gt, {}, at::Reduction::None);
    main = spec.balance_loss ? ohem_balance(bce, gt, shrink_mask, spec.ohem_ratio, kBalanceEps)
                             : (bce * shrink_mask).sum() / (shrink_mask.sum() + kBalanceEps);
  } else {
    const auto dice = dice_loss(student_shrink, gt, shrink_mask, kBalanceEps);
    main = spec.balance_loss ? ohem_balance(dice, gt, shrink_mask, spec.ohem_ratio, kBalanceEps) : dice;
  }
  return spec.alpha * main + dice_loss(student_binary, gt, shrink_mask, spec.eps);
}

torch::Tensor dml_maps_per_sample(const torch::Tensor& map1, const torch::Tensor& map2, const std::string& act) {
  check_maps(map1, map2, "DistillationDMLLoss");
  torch::Tensor p1 = map1, p2 = map2;
  if (act == "sigmoid") {
    p1 = torch::sigmoid(map1) + 1e-10;
    p2 = torch::sigmoid(map2) + 1e-10;
  } else if (act == "softmax") {
    p1 = torch::softmax(map1, -1) + 1e-10;
    p2 = torch::softmax(map2, -1) + 1e-10;
  } else if (!act.empty()) {
    throw UsageError("DistillationDMLLoss.act: '" + act + "' (known: softmax, sigmoid)");
  }
  const double eps = 1e-5;
  const auto loss = 0.5 * (p2 * torch::log((p2 + eps) / (p1 + eps) + eps) + p1 * torch::log((p1 + eps) / (p2 + eps) + eps));
  return loss.mean({1, 2});
}

}  // namespace ocrforge
