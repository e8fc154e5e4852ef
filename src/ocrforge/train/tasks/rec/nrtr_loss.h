// PaddleOCR's NRTRLoss (ppocr/losses/rec_nrtr_loss.py) on LibTorch.
#pragma once
#include <torch/torch.h>

namespace ocrforge {

// logits: N x (m + 1) x V, the NRTR head's teacher-forced output for
//   m = max(length) (nrtr_head.h); label_gtc: N x L int64 ([<s>, text, </s>,
//   0, ...]); length: N int64 text lengths.
// Targets are label_gtc[:, 1 : m + 2]; padding (0) is ignored. With
// `smoothing` (PaddleOCR's default) each target is a distribution of 0.9 on
// the class and 0.1 / (V - 1) on every other class, and the loss is the mean
// over non-padding targets of -sum(p * log_softmax); without it, plain
// cross-entropy averaged over the same targets. Computed in float32. Error
// for shapes that disagree.
torch::Tensor nrtr_loss(const torch::Tensor& logits, const torch::Tensor& label_gtc, const torch::Tensor& length,
                        bool smoothing = true);

}  // namespace ocrforge
