#include "ocrforge/train/tasks/rec/sequence_encoder.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

torch::Tensor im2seq(const torch::Tensor& x) {
  if (x.dim() != 4 || x.size(2) != 1) {
    std::string shape;
    for (auto s : x.sizes()) shape += (shape.empty() ? "" : "x") + std::to_string(s);
    throw UsageError("SequenceEncoder (Im2Seq): backbone features are " + shape +
                     " (NxCxHxW) but the height must be 1; the image height does not match the backbone "
                     "(PP-OCRv3 MobileNetV1Enhance expects 48, CRNN MobileNetV3 32): check RecResizeImg.image_shape");
  }
  return x.squeeze(2).transpose(1, 2);  // N,C,W -> N,W,C
}

EncoderWithRNNImpl::EncoderWithRNNImpl(int64_t in_channels, int64_t hidden_size) {
  // LibTorch's default LSTM init, U(+-1/sqrt(hidden)) for all weights and biases, is Paddle's too.
  lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(in_channels, hidden_size)
                                                      .num_layers(2)
                                                      .bidirectional(true)
                                                      .batch_first(true)));
}

torch::Tensor EncoderWithRNNImpl::forward(torch::Tensor x) { return std::get<0>(lstm_(x)); }

EncoderWithFCImpl::EncoderWithFCImpl(int64_t in_channels, int64_t hidden_size) {
  fc_ = register_module("fc", torch::nn::Linear(in_channels, hidden_size));
  paddle_init::uniform_fan(fc_->weight, in_channels);
  paddle_init::uniform_fan(fc_->bias, in_channels);
}

torch::Tensor EncoderWithFCImpl::forward(torch::Tensor x) { return fc_(x); }

SequenceEncoderImpl::SequenceEncoderImpl(int64_t in_channels, const NeckSpec& spec) : type_(spec.encoder_type) {
  if (type_ == "reshape") {
    out_channels_ = in_channels;
  } else if (type_ == "fc") {
    encoder_ = torch::nn::AnyModule(register_module("encoder", EncoderWithFC(in_channels, spec.hidden_size)));
    out_channels_ = spec.hidden_size;
  } else if (type_ == "rnn") {
    encoder_ = torch::nn::AnyModule(register_module("encoder", EncoderWithRNN(in_channels, spec.hidden_size)));
    out_channels_ = 2 * spec.hidden_size;
  } else if (type_ == "svtr") {
    encoder_ = torch::nn::AnyModule(register_module("encoder", EncoderWithSVTR(in_channels, spec)));
    out_channels_ = spec.dims;
  } else {
    throw UsageError("Architecture.Neck.encoder_type: unknown encoder '" + type_ + "' (known: reshape, fc, rnn, svtr)");
  }
}

torch::Tensor SequenceEncoderImpl::forward(torch::Tensor x) {
  if (type_ == "svtr") return im2seq(encoder_.forward(x));  // the svtr encoder works on the 2-D map
  x = im2seq(x);
  return encoder_.is_empty() ? x : encoder_.forward(x);
}

}  // namespace ocrforge
