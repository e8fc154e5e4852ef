// PaddleOCR's CTCLoss (ppocr/losses/rec_ctc_loss.py) on LibTorch.
#pragma once
#include <torch/torch.h>

namespace ocrforge {

// logits: N x T x C raw head outputs (no softmax; log_softmax is applied here,
//   as Paddle's warpctc does internally). Computed in float32.
// labels: N x S integer class ids, padded with 0 after each label's length
//   (CTCLabelEncode's layout; blank = 0 never appears inside a label).
// label_lengths: N integers, each in [1, S].
// Every sample uses the full T as its prediction length. Per-sample losses
// are -log p(label | x), not divided by the label length; with use_focal_loss
// each is weighted by (1 - exp(-loss))^2 (the weight is not detached). Returns
// their mean over the batch (a scalar). A label that cannot fit in T steps
// contributes 0, as with Paddle's warpctc (and LibTorch's zero_infinity).
torch::Tensor ctc_loss(const torch::Tensor& logits, const torch::Tensor& labels, const torch::Tensor& label_lengths,
                       bool use_focal_loss = false);

}  // namespace ocrforge
