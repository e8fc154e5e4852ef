// DBLoss (PaddleOCR ppocr/losses/det_db_loss.py and det_basic_loss.py):
//   loss = alpha * BalanceLoss(shrink P, shrink_map, shrink_mask)
//        + beta  * MaskL1(threshold T, threshold_map, threshold_mask)
//        +         Dice(binary B, shrink_map, shrink_mask)
// with PaddleOCR's exact OHEM rule in BalanceLoss (see ohem_balance below)
// and its epsilons. Every part stays finite on a batch without text or with
// all-zero masks (the counts and denominators are guarded by eps).
#pragma once
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

#include "ocrforge/train/tasks/det/det_arch_spec.h"

namespace ocrforge {

// The label maps of a batch, as MakeShrinkMap / MakeBorderMap produce them:
// each N x H x W float (H, W = the image size). Maps and masks hold 0 / 1,
// except threshold_map (values in [thresh_min, thresh_max]).
struct DBTargets {
  torch::Tensor shrink_map, shrink_mask, threshold_map, threshold_mask;
};

// Scalar tensors; `loss` carries the gradient, the parts are the weighted
// terms that sum to it (PaddleOCR logs the same four keys). The threshold
// term is undefined for probability_map_only (and left out of named()).
struct DBLossParts {
  torch::Tensor loss, loss_shrink_maps, loss_threshold_maps, loss_binary_maps;
  // In PaddleOCR's log order: loss, loss_shrink_maps, loss_threshold_maps, loss_binary_maps.
  std::vector<std::pair<std::string, torch::Tensor>> named() const;
};

class DBLoss {
 public:
  // Validates the spec (UsageError naming Loss.<key>).
  explicit DBLoss(const DBLossSpec& spec = {});
  // maps: N x 3 x H x W (DetModel in training mode: shrink, threshold,
  // binary). Throws Error when a target's shape is not N x H x W.
  DBLossParts operator()(const torch::Tensor& maps, const DBTargets& targets) const;
  // A deployed DB graph has no threshold branch: its one map is the
  // probability map P = sigmoid(logits) (N x 1 x H x W, pre-sigmoid), which
  // is also what inference binarises. Trains it with the two terms that do
  // not need a threshold map: alpha * the balanced main loss on P (BCELoss
  // computed from the logits) + Dice(P) in place of the binary-map term.
  DBLossParts probability_map_only(const torch::Tensor& logits, const DBTargets& targets) const;
  const DBLossSpec& spec() const { return spec_; }

 private:
  // alpha * BalanceLoss(main loss on `shrink`); `logits` (may be undefined)
  // is the pre-sigmoid map, for a stable BCE.
  torch::Tensor shrink_term(const torch::Tensor& shrink, const torch::Tensor& logits, const DBTargets& t) const;
  DBLossSpec spec_;
};

// The building blocks, exposed for tests and other DB-style losses. pred,
// gt, mask: same shape (N x H x W); results are scalar tensors.

// 1 - 2 sum(P G M) / (sum(P M) + sum(G M) + eps).
torch::Tensor dice_loss(const torch::Tensor& pred, const torch::Tensor& gt, const torch::Tensor& mask, double eps);
// sum(|P - G| M) / (sum(M) + eps).
torch::Tensor mask_l1_loss(const torch::Tensor& pred, const torch::Tensor& gt, const torch::Tensor& mask, double eps);

// PaddleOCR's BalanceLoss around a main loss `loss` (per pixel, the shape of
// gt; or a scalar, which every pixel then carries, as PaddleOCR's DiceLoss
// main loss does): positives = gt * mask, negatives = (1 - gt) * mask,
//   positive_count = int(sum(positives)),
//   negative_count = int(min(sum(negatives), positive_count * negative_ratio)),
// and the result is (sum of the positives' loss + sum of the negative_count
// largest negatives' loss) / (positive_count + negative_count + eps); with
// no negative kept, sum of the positives' loss / (positive_count + eps). So a
// batch without text contributes 0 (no negatives are mined without positives).
torch::Tensor ohem_balance(const torch::Tensor& loss, const torch::Tensor& gt, const torch::Tensor& mask,
                           double negative_ratio, double eps = 1e-6);

}  // namespace ocrforge
