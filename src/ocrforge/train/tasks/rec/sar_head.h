// PaddleOCR's SARHead (ppocr/modeling/heads/rec_sar_head.py, after mmocr's
// SAR): SAREncoder + ParallelSARDecoder with 2-D attention. In PP-OCRv3 it is
// the training-only guidance branch of MultiHead, reading the backbone's
// features; RecModel builds it as `sar_head` (sar_head.encoder.*,
// sar_head.decoder.*: PaddleOCR's head.sar_head.* without the MultiHead level,
// as the CTC branch is neck.* / head.* here).
//
// Layouts: feat N x C x h x w (backbone output, C = d_model);
// label N x L int64 (SARLabelEncode's label_sar: BOS, text, EOS, PAD...);
// valid_ratio N float (RecResizeImg's resized width / W).
// SAR classes (data/sar_label_encode.h): out_channels = D + 3; the decoder
// predicts D + 2 (no <PAD>).
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/sar_head_spec.h"

namespace ocrforge {

// A 2-layer LSTM or GRU (batch first), as Paddle's nn.LSTM / nn.GRU with
// num_layers 2, registered on `owner` as `name` (LibTorch's parameter names
// below it: rnn_encoder.weight_ih_l0, ...).
class SarRnn {
 public:
  SarRnn() = default;
  SarRnn(torch::nn::Module& owner, const std::string& name, int64_t input, int64_t hidden, bool bidirectional,
         double dropout, bool gru);
  // x: N x T x input -> N x T x hidden * (bidirectional + 1)
  torch::Tensor operator()(const torch::Tensor& x);

 private:
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::GRU gru_{nullptr};
};

// Column-max over the height, an RNN over the width, the state at the last
// valid column (ceil(valid_ratio * w) - 1), a Linear: the holistic feature.
class SAREncoderImpl : public torch::nn::Module {
 public:
  SAREncoderImpl(int64_t d_model, const SarHeadSpec& spec);
  // feat N x C x h x w, valid_ratio N (undefined: the last column) -> N x E,
  // E = enc_dim * (enc_bi_rnn + 1).
  torch::Tensor forward(const torch::Tensor& feat, const torch::Tensor& valid_ratio);

 private:
  SarRnn rnn_encoder_;
  torch::nn::Linear linear_{nullptr};
};
TORCH_MODULE(SAREncoder);

class ParallelSARDecoderImpl : public torch::nn::Module {
 public:
  ParallelSARDecoderImpl(int64_t d_model, const SarHeadSpec& spec);
  // Teacher forcing (PaddleOCR's forward_train): logits N x L x (out_channels - 1)
  // for the inputs [holistic, label_0 .. label_{L-2}] (step t predicts label_{t+1};
  // SARLoss compares [:, :-1] with label[:, 1:]). Pred dropout when training.
  torch::Tensor forward(const torch::Tensor& feat, const torch::Tensor& holistic, const torch::Tensor& label,
                        const torch::Tensor& valid_ratio);
  // Greedy decoding (PaddleOCR's forward_test): max_text_length steps, each
  // fed the previous argmax; softmax probabilities N x max_text_length x
  // (out_channels - 1). No dropout.
  torch::Tensor decode(const torch::Tensor& feat, const torch::Tensor& holistic, const torch::Tensor& valid_ratio);

  int64_t start_index() const { return out_channels_ - 2; }
  int64_t padding_index() const { return out_channels_ - 1; }

 private:
  // The decoder RNN over `input` (N x T x E), 2-D attention over `feat`
  // (masked right of each sample's valid width), the prediction layer.
  torch::Tensor attend(const torch::Tensor& input, const torch::Tensor& feat, const torch::Tensor& holistic,
                       const torch::Tensor& valid_ratio, bool dropout);

  SarHeadSpec spec_;
  int64_t out_channels_ = 0;
  torch::nn::Linear conv1x1_1_{nullptr};
  torch::nn::Conv2d conv3x3_1_{nullptr};
  torch::nn::Linear conv1x1_2_{nullptr};
  SarRnn rnn_decoder_;
  torch::nn::Embedding embedding_{nullptr};
  torch::nn::Linear prediction_{nullptr};
};
TORCH_MODULE(ParallelSARDecoder);

class SARHeadImpl : public torch::nn::Module {
 public:
  // in_channels: the backbone's output channels (d_model).
  SARHeadImpl(int64_t in_channels, const SarHeadSpec& spec);
  // Training path: teacher-forced logits N x L x (out_channels - 1).
  torch::Tensor forward(const torch::Tensor& feat, const torch::Tensor& label, const torch::Tensor& valid_ratio);
  // Greedy reading: probabilities N x max_text_length x (out_channels - 1);
  // argmax + data/sar_label_encode.h's sar_indices_to_text give the text.
  torch::Tensor decode(const torch::Tensor& feat, const torch::Tensor& valid_ratio);
  const SarHeadSpec& spec() const { return spec_; }

 private:
  SarHeadSpec spec_;
  int64_t in_channels_ = 0;
  SAREncoder encoder_{nullptr};
  ParallelSARDecoder decoder_{nullptr};
};
TORCH_MODULE(SARHead);

// The number of valid columns of a feature map `width` wide, per sample:
// min(width, ceil(valid_ratio * width)), at least 1. PaddleOCR computes it on
// the exact ratio resized_w / W (a Python float); valid_ratio here is its
// float32 value, so the ceil allows 1e-4 of rounding (a true fraction is at
// least 1 / W away from an integer). valid_ratio N float -> N int64.
torch::Tensor sar_valid_widths(const torch::Tensor& valid_ratio, int64_t width);

}  // namespace ocrforge
