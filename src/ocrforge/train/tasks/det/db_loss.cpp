#include "ocrforge/train/tasks/det/db_loss.h"

#include <algorithm>

#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {
// BalanceLoss and its inner DiceLoss keep their own default eps in PaddleOCR
// (DBLoss does not pass its eps on to them).
constexpr double kBalanceEps = 1e-6;

void check_target(const torch::Tensor& t, const char* name, const torch::Tensor& maps) {
  if (!t.defined()) throw Error(std::string("DBLoss: target ") + name + " is missing");
  if (t.dim() != 3 || t.size(0) != maps.size(0) || t.size(1) != maps.size(2) || t.size(2) != maps.size(3))
    throw Error(std::string("DBLoss: target ") + name + " has shape " + c10::str(t.sizes()) + " but the maps are " +
                c10::str(maps.sizes()) + "; each target must be N x H x W of the same batch and size");
}
}  // namespace

std::vector<std::pair<std::string, torch::Tensor>> DBLossParts::named() const {
  std::vector<std::pair<std::string, torch::Tensor>> out = {{"loss", loss}, {"loss_shrink_maps", loss_shrink_maps}};
  if (loss_threshold_maps.defined()) out.emplace_back("loss_threshold_maps", loss_threshold_maps);
  out.emplace_back("loss_binary_maps", loss_binary_maps);
  return out;
}

torch::Tensor dice_loss(const torch::Tensor& pred, const torch::Tensor& gt, const torch::Tensor& mask, double eps) {
  const auto intersection = (pred * gt * mask).sum();
  const auto union_ = (pred * mask).sum() + (gt * mask).sum() + eps;
  return 1.0 - 2.0 * intersection / union_;
}

torch::Tensor mask_l1_loss(const torch::Tensor& pred, const torch::Tensor& gt, const torch::Tensor& mask,
                           double eps) {
  return ((pred - gt).abs() * mask).sum() / (mask.sum() + eps);
}

torch::Tensor ohem_balance(const torch::Tensor& loss, const torch::Tensor& gt, const torch::Tensor& mask,
                           double negative_ratio, double eps) {
  const auto positive = gt * mask;
  const auto negative = (1.0 - gt) * mask;
  // Python's int(): truncation of the float sums, as PaddleOCR.
  const auto positive_count = static_cast<int64_t>(positive.sum().item<double>());
  const auto negative_count = static_cast<int64_t>(
      std::min(negative.sum().item<double>(), static_cast<double>(positive_count) * negative_ratio));
  const auto positive_loss = (positive * loss).sum();
  if (negative_count <= 0) return positive_loss / (static_cast<double>(positive_count) + eps);
  // The hardest negatives: the negative_count largest losses among negative pixels.
  const auto negative_loss = std::get<0>((negative * loss).reshape({-1}).topk(negative_count)).sum();
  return (positive_loss + negative_loss) / (static_cast<double>(positive_count + negative_count) + eps);
}

DBLoss::DBLoss(const DBLossSpec& spec) : spec_(spec) { validate_db_loss(spec_); }

DBLossParts DBLoss::operator()(const torch::Tensor& maps, const DBTargets& t) const {
  if (!maps.defined() || maps.dim() != 4 || maps.size(1) != 3)
    throw Error("DBLoss: expected the training maps N x 3 x H x W (shrink, threshold, binary), got " +
                (maps.defined() ? c10::str(maps.sizes()) : std::string("nothing")) +
                "; is the model in eval mode?");
  check_target(t.shrink_map, "shrink_map", maps);
  check_target(t.shrink_mask, "shrink_mask", maps);
  check_target(t.threshold_map, "threshold_map", maps);
  check_target(t.threshold_mask, "threshold_mask", maps);
  const auto shrink = maps.select(1, 0), threshold = maps.select(1, 1), binary = maps.select(1, 2);

  DBLossParts parts;
  parts.loss_shrink_maps = shrink_term(shrink, torch::Tensor(), t);
  parts.loss_threshold_maps = spec_.beta * mask_l1_loss(threshold, t.threshold_map, t.threshold_mask, spec_.eps);
  parts.loss_binary_maps = dice_loss(binary, t.shrink_map, t.shrink_mask, spec_.eps);
  parts.loss = parts.loss_shrink_maps + parts.loss_threshold_maps + parts.loss_binary_maps;
  return parts;
}

torch::Tensor DBLoss::shrink_term(const torch::Tensor& shrink, const torch::Tensor& logits, const DBTargets& t) const {
  torch::Tensor main;
  if (spec_.main_loss_type == "BCELoss") {
    // From the logits when we have them: the same value, without log(0) for saturated pixels.
    const auto bce = logits.defined()
                         ? torch::binary_cross_entropy_with_logits(logits, t.shrink_map, {}, {}, at::Reduction::None)
                         : torch::binary_cross_entropy(shrink, t.shrink_map, {}, at::Reduction::None);
    // Without balancing PaddleOCR would return the unreduced map; the masked
    // mean keeps the loss a scalar.
    main = spec_.balance_loss ? ohem_balance(bce, t.shrink_map, t.shrink_mask, spec_.ohem_ratio, kBalanceEps)
                              : (bce * t.shrink_mask).sum() / (t.shrink_mask.sum() + kBalanceEps);
  } else {  // DiceLoss: one scalar, which BalanceLoss spreads over the pixels
    const auto dice = dice_loss(shrink, t.shrink_map, t.shrink_mask, kBalanceEps);
    main = spec_.balance_loss ? ohem_balance(dice, t.shrink_map, t.shrink_mask, spec_.ohem_ratio, kBalanceEps) : dice;
  }
  return spec_.alpha * main;
}

DBLossParts DBLoss::probability_map_only(const torch::Tensor& logits, const DBTargets& t) const {
  if (!logits.defined() || logits.dim() != 4 || logits.size(1) != 1)
    throw Error("DBLoss: expected the pre-sigmoid probability map N x 1 x H x W, got " +
                (logits.defined() ? c10::str(logits.sizes()) : std::string("nothing")));
  check_target(t.shrink_map, "shrink_map", logits);
  check_target(t.shrink_mask, "shrink_mask", logits);
  const auto z = logits.select(1, 0);
  const auto p = torch::sigmoid(z);
  DBLossParts parts;
  parts.loss_shrink_maps = shrink_term(p, z, t);
  parts.loss_binary_maps = dice_loss(p, t.shrink_map, t.shrink_mask, spec_.eps);
  parts.loss = parts.loss_shrink_maps + parts.loss_binary_maps;
  return parts;
}

}  // namespace ocrforge
