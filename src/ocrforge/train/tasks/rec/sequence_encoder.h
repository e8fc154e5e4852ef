// PaddleOCR's SequenceEncoder neck (ppocr/modeling/necks/rnn.py): turns the
// backbone's N x C x 1 x W feature map into a sequence N x T x C' (T = W).
//   reshape: Im2Seq only (C' = C)
//   fc:      Im2Seq -> Linear(C, hidden_size)           (neck.encoder.fc.*)
//   rnn:     Im2Seq -> 2-layer BiLSTM(hidden_size)      (neck.encoder.lstm.*, C' = 2*hidden)
//   svtr:    EncoderWithSVTR on the map -> Im2Seq       (neck.encoder.*, C' = dims)
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/encoder_svtr.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge {

// N,C,1,W -> N,W,C. Throws UsageError when H != 1 (the backbone did not
// reduce the image height to 1: image_shape and backbone strides disagree).
torch::Tensor im2seq(const torch::Tensor& x);

// x: N,T,C -> N,T,2*hidden. Paddle's nn.LSTM(direction="bidirectional", num_layers=2).
class EncoderWithRNNImpl : public torch::nn::Module {
 public:
  EncoderWithRNNImpl(int64_t in_channels, int64_t hidden_size);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::LSTM lstm_{nullptr};
};
TORCH_MODULE(EncoderWithRNN);

// x: N,T,C -> N,T,hidden. Weight/bias U(+-1/sqrt(C)); PaddleOCR pins L2 1e-5 on them.
class EncoderWithFCImpl : public torch::nn::Module {
 public:
  EncoderWithFCImpl(int64_t in_channels, int64_t hidden_size);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(EncoderWithFC);

class SequenceEncoderImpl : public torch::nn::Module {
 public:
  SequenceEncoderImpl(int64_t in_channels, const NeckSpec& spec);
  // x: N,C,H,W backbone features -> N,T,out_channels().
  torch::Tensor forward(torch::Tensor x);
  int64_t out_channels() const { return out_channels_; }
  const std::string& encoder_type() const { return type_; }

 private:
  std::string type_;
  torch::nn::AnyModule encoder_;  // empty for "reshape"
  int64_t out_channels_ = 0;
};
TORCH_MODULE(SequenceEncoder);

}  // namespace ocrforge
