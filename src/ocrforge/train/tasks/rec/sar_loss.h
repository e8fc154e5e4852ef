// PaddleOCR's SARLoss (ppocr/losses/rec_sar_loss.py) on LibTorch.
#pragma once
#include <torch/torch.h>

namespace ocrforge {

// logits: N x L x P, the SARHead's teacher-forced output (step t predicts
//   label[t + 1]; P = D + 2 prediction classes, data/sar_label_encode.h).
// label_sar: N x L int64, SARLabelEncode's [BOS, text, EOS, PAD, ...].
// Cross-entropy of logits[:, :-1] against label_sar[:, 1:], averaged over the
// targets that are not `ignore_index` (PaddleOCR's CrossEntropyLoss(mean,
// ignore_index)). ocrforge's ignore_index is the <PAD> index D + 2 (see
// rec_loss_spec.h for PaddleOCR's 92). Computed in float32. Error for shapes
// that disagree or a target outside [0, P) that is not ignored.
torch::Tensor sar_loss(const torch::Tensor& logits, const torch::Tensor& label_sar, int64_t ignore_index);

}  // namespace ocrforge
