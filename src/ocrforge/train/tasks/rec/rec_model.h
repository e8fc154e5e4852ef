// Recognition network = backbone + SequenceEncoder neck + CTC head (+ the
// training-only guidance branch of a MultiHead, which reads the backbone's
// features: PP-OCRv3's SARHead "sar_head", or PP-OCRv4 / v5's NRTR branch
// "before_gtc" + "gtc_head"), built from a RecArchSpec. Child names "backbone",
// "neck", "head" make the
// parameter names (checkpoint keys, later ONNX initializer names) read like
// PaddleOCR's: backbone.conv1._conv.weight, neck.encoder.svtr_block.0.mixer.qkv.weight,
// head.fc.weight. Differences from a Paddle state dict: BatchNorm statistics
// are running_mean / running_var (Paddle: _mean / _variance) plus LibTorch's
// num_batches_tracked buffer; Linear weights are [out, in] (Paddle [in, out]);
// LSTM weights are LibTorch's weight_ih_l0[_reverse] layout.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/nn/paddle_names.h"

#include <optional>
#include <string>

#include "ocrforge/train/tasks/rec/ctc_head.h"
#include "ocrforge/train/tasks/rec/nrtr_head.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"
#include "ocrforge/train/tasks/rec/rec_backbone.h"
#include "ocrforge/train/tasks/rec/sar_head.h"
#include "ocrforge/train/tasks/rec/sequence_encoder.h"

namespace ocrforge {

// Every intermediate a distillation loss may compare (PaddleOCR's
// return_all_feats): backbone_out N,C,H',W' (before MultiHead's use_pool); neck_out N,T,C'; logits N,T,classes;
// sar_logits N,L,SAR classes - 1 (MultiHead's "sar" output; defined only
// when the SAR branch ran); nrtr_logits N,m+1,NRTR vocabulary (its "nrtr"
// output, when the NRTR branch ran).
struct RecForward {
  torch::Tensor backbone_out;
  torch::Tensor neck_out;
  torch::Tensor logits;
  torch::Tensor sar_logits;
  torch::Tensor nrtr_logits;
};

// What the SAR branch reads besides the image (PaddleOCR's targets[1:]):
// label_sar N x L int64 and valid_ratio N float, on the model's device.
struct SarTargets {
  torch::Tensor label_sar;
  torch::Tensor valid_ratio;
};

// What the NRTR branch reads: label_gtc N x max_text_length int64 and the
// text lengths N int64, on the model's device.
struct NrtrTargets {
  torch::Tensor label_gtc;
  torch::Tensor length;
};

class RecModelImpl : public torch::nn::Module, public PaddleNames {
 public:
  // Validates the spec (UsageError naming the Architecture key on bad values).
  explicit RecModelImpl(const RecArchSpec& spec);
  // x: N x in_channels x H x W float, normalised to [-1, 1] -> logits N x T x classes
  // (T = W / 8 for the PP-OCRv3 settings, W / 4 for the CRNN ones).
  // The CTC branch only, in training and eval mode (PaddleOCR's MultiHead
  // returns it alone in eval mode; export writes it).
  torch::Tensor forward(torch::Tensor x);
  // All features; with `sar` (and a SAR head) the SAR branch too, with
  // `nrtr` (and an NRTR branch) the NRTR branch, teacher-forced, in either
  // mode (dropout only in training mode).
  RecForward forward_all(torch::Tensor x, const SarTargets* sar = nullptr, const NrtrTargets* nrtr = nullptr);
  // softmax(forward(x)) over classes, N x T x classes: the inference output.
  torch::Tensor predict(torch::Tensor x);

  const RecArchSpec& spec() const { return spec_; }
  std::shared_ptr<RecBackboneImpl> backbone() const { return backbone_; }
  SequenceEncoder neck() const { return neck_; }
  CTCHead head() const { return head_; }
  SARHead sar_head() const { return sar_head_; }  // null without a SARHead
  NrtrTransformer gtc_head() const { return gtc_head_; }  // null without an NRTR branch
  // Parameters of the training-only branch (SAR or NRTR), 0 without one.
  int64_t guide_branch_parameters() const;
  // A MultiHead model's branches under PaddleOCR's names (spec().multi_head):
  // neck. -> head.ctc_encoder., head. -> head.ctc_head., sar_head.,
  // before_gtc., gtc_head. -> head.<same>. Nothing for a CTCHead model.
  std::vector<std::pair<std::string, std::string>> paddle_prefixes() const override;

  // L2 factor PaddleOCR pins on this parameter through its ParamAttr, which
  // overrides Optimizer.regularizer.factor: head.* -> Head.fc_decay,
  // neck.encoder.fc.* (encoder_type fc) -> 1e-5, MobileNetV1Enhance BatchNorm and
  // PPLCNetV3 conv-branch BatchNorm scale/shift -> 0. nullopt: the optimizer's factor applies.
  std::optional<float> pinned_l2_decay(const std::string& param_name) const;

  // Channels-last (NHWC) memory format for the 4-D weights and, inside
  // forward, for the input: on CPU oneDNN's depthwise convolutions run much
  // faster in NHWC (measured: backward of one 5x5 depthwise layer 90 -> 34 ms;
  // docs/benchmarks.md). Only strides change: the values, the parameter
  // names and the checkpoint contents (saved contiguous) stay the same.
  // Call before creating the optimizer, so its state follows the format.
  void set_channels_last(bool on);
  bool channels_last() const { return channels_last_; }

 private:
  // What the heads read: the backbone's features, pooled by MultiHead's use_pool.
  torch::Tensor head_input(const torch::Tensor& features) const;
  // The input in the weights' memory format.
  torch::Tensor in_format(const torch::Tensor& x) const;

  RecArchSpec spec_;
  bool channels_last_ = false;
  std::shared_ptr<RecBackboneImpl> backbone_;
  SequenceEncoder neck_{nullptr};
  CTCHead head_{nullptr};
  SARHead sar_head_{nullptr};
  NrtrTokens before_gtc_{nullptr};
  NrtrTransformer gtc_head_{nullptr};
};
TORCH_MODULE(RecModel);

// MultiHead's use_pool: AvgPool2D, kernel = stride = 3 x 2 (PaddleOCR's
// rec_multi_head.py), on SVTRNet's 3-row map: 3 x 80 -> 1 x 40.
inline std::vector<int64_t> multi_head_pool_kernel() { return {3, 2}; }

// Number of scalar parameters (trainable or not; buffers such as BN running
// statistics excluded), e.g. for the model summary and docs/models.md.
int64_t count_parameters(const torch::nn::Module& module);

// AdamW's no-decay rule (PaddleOCR one_dim_param_no_weight_decay): biases and
// norm scales/shifts, i.e. tensors with at most one dimension, get no weight decay.
bool is_no_decay_param(const torch::Tensor& param);

}  // namespace ocrforge
