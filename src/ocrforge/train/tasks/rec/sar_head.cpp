// SARHead (sar_head.h). Initialisation is Paddle's default for each layer:
// Linear and Embedding weights Xavier-uniform (Paddle's default weight
// initializer; the bound sqrt(6 / (fan_in + fan_out)) is symmetric, so
// LibTorch's [out, in] layout gives the same distribution), zero biases;
// the 3x3 conv N(0, sqrt(2 / (9 * in))) (paddle_init::default_conv); the
// RNNs U(+-1/sqrt(hidden)), which is LibTorch's default too.
#include "ocrforge/train/tasks/rec/sar_head.h"

#include <limits>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

namespace {

torch::nn::Linear xavier_linear(int64_t in, int64_t out) {
  torch::nn::Linear l(in, out);
  torch::NoGradGuard no_grad;
  torch::nn::init::xavier_uniform_(l->weight);
  l->bias.zero_();
  return l;
}

void check_feat(const torch::Tensor& feat, int64_t d_model, const char* who) {
  if (feat.dim() != 4 || feat.size(1) != d_model)
    throw Error(std::string(who) + ": expected backbone features N x " + std::to_string(d_model) +
                " x h x w, got " + c10::str(feat.sizes()));
}

}  // namespace

torch::Tensor sar_valid_widths(const torch::Tensor& valid_ratio, int64_t width) {
  const auto cols = torch::ceil(valid_ratio.to(torch::kDouble) * static_cast<double>(width) - 1e-4);
  return cols.clamp(1, static_cast<double>(width)).to(torch::kLong);
}

SarRnn::SarRnn(torch::nn::Module& owner, const std::string& name, int64_t input, int64_t hidden, bool bidirectional,
               double dropout, bool gru) {
  if (gru) {
    gru_ = owner.register_module(
        name, torch::nn::GRU(torch::nn::GRUOptions(input, hidden).num_layers(2).batch_first(true).dropout(dropout)
                                 .bidirectional(bidirectional)));
  } else {
    lstm_ = owner.register_module(
        name, torch::nn::LSTM(torch::nn::LSTMOptions(input, hidden).num_layers(2).batch_first(true).dropout(dropout)
                                  .bidirectional(bidirectional)));
  }
}

torch::Tensor SarRnn::operator()(const torch::Tensor& x) {
  const auto in = x.contiguous();
  return gru_ ? std::get<0>(gru_->forward(in)) : std::get<0>(lstm_->forward(in));
}

SAREncoderImpl::SAREncoderImpl(int64_t d_model, const SarHeadSpec& s) {
  const int64_t out = static_cast<int64_t>(s.enc_dim) * (s.enc_bi_rnn ? 2 : 1);
  rnn_encoder_ = SarRnn(*this, "rnn_encoder", d_model, s.enc_dim, s.enc_bi_rnn, s.enc_drop_rnn, s.enc_gru);
  linear_ = register_module("linear", xavier_linear(out, out));
}

torch::Tensor SAREncoderImpl::forward(const torch::Tensor& feat, const torch::Tensor& valid_ratio) {
  // max_pool2d over the whole height = the column maximum: N x C x w -> N x w x C.
  const auto columns = std::get<0>(feat.max(2)).transpose(1, 2);
  const auto states = rnn_encoder_(columns);  // N x w x E
  torch::Tensor last;
  if (valid_ratio.defined()) {
    const auto step = (sar_valid_widths(valid_ratio, states.size(1)) - 1).to(feat.device());
    last = states.index({torch::arange(states.size(0), step.options()), step});
  } else {
    last = states.select(1, -1);
  }
  return linear_(last);
}

ParallelSARDecoderImpl::ParallelSARDecoderImpl(int64_t d_model, const SarHeadSpec& s)
    : spec_(s), out_channels_(s.out_channels) {
  const int64_t enc = static_cast<int64_t>(s.enc_dim) * (s.enc_bi_rnn ? 2 : 1);
  const int64_t dec = enc * (s.dec_bi_rnn ? 2 : 1);
  conv1x1_1_ = register_module("conv1x1_1", xavier_linear(dec, s.d_k));
  conv3x3_1_ = register_module("conv3x3_1",
                               torch::nn::Conv2d(torch::nn::Conv2dOptions(d_model, s.d_k, 3).stride(1).padding(1)));
  {
    torch::NoGradGuard no_grad;
    paddle_init::default_conv(conv3x3_1_->weight, d_model);
    conv3x3_1_->bias.zero_();
  }
  conv1x1_2_ = register_module("conv1x1_2", xavier_linear(s.d_k, 1));
  rnn_decoder_ = SarRnn(*this, "rnn_decoder", enc, enc, s.dec_bi_rnn, s.dec_drop_rnn, s.dec_gru);
  embedding_ = register_module(
      "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(out_channels_, enc).padding_idx(padding_index())));
  {
    torch::NoGradGuard no_grad;
    torch::nn::init::xavier_uniform_(embedding_->weight);
    embedding_->weight[padding_index()].zero_();  // Paddle looks <PAD> up as zeros
  }
  const int64_t fc_in = s.pred_concat ? dec + d_model + enc : d_model;
  prediction_ = register_module("prediction", xavier_linear(fc_in, out_channels_ - 1));
}

torch::Tensor ParallelSARDecoderImpl::attend(const torch::Tensor& input, const torch::Tensor& feat,
                                             const torch::Tensor& holistic, const torch::Tensor& valid_ratio,
                                             bool dropout) {
  const auto y = rnn_decoder_(input);  // N x T x Hd
  const int64_t n = y.size(0), t = y.size(1);
  const auto query = conv1x1_1_(y);                               // N x T x d_k
  const auto key = conv3x3_1_(feat).permute({0, 2, 3, 1});        // N x h x w x d_k
  const int64_t h = key.size(1), w = key.size(2);
  // tanh(key + query) per (step, position), reduced over d_k by conv1x1_2:
  // N x T x h x w x d_k -> N x T x h x w.
  auto score = conv1x1_2_(torch::tanh(key.unsqueeze(1) + query.view({n, t, 1, 1, -1}))).squeeze(-1);
  if (valid_ratio.defined()) {
    const auto widths = sar_valid_widths(valid_ratio, w).to(feat.device());
    const auto outside = torch::arange(w, widths.options()).unsqueeze(0) >= widths.unsqueeze(1);  // N x w
    score = score.masked_fill(outside.view({n, 1, 1, w}), -std::numeric_limits<float>::infinity());
  }
  const auto weight = torch::softmax(score.reshape({n, t, h * w}), -1).view({n, t, h, w});
  const auto glimpse = torch::einsum("nthw,nchw->ntc", {weight, feat});  // N x T x C
  torch::Tensor out;
  if (spec_.pred_concat)
    out = prediction_(torch::cat({y, glimpse, holistic.unsqueeze(1).expand({n, t, holistic.size(1)})}, 2));
  else
    out = prediction_(glimpse);
  return dropout ? torch::dropout(out, spec_.pred_dropout, true) : out;
}

torch::Tensor ParallelSARDecoderImpl::forward(const torch::Tensor& feat, const torch::Tensor& holistic,
                                              const torch::Tensor& label, const torch::Tensor& valid_ratio) {
  if (label.dim() != 2 || label.size(0) != feat.size(0))
    throw Error("SARHead: label_sar must be N x max_text_length (N = " + std::to_string(feat.size(0)) + "), got " +
                c10::str(label.sizes()));
  const auto input = torch::cat({holistic.unsqueeze(1), embedding_(label)}, 1);  // N x (L + 1) x E
  return attend(input, feat, holistic, valid_ratio, is_training()).slice(1, 1);
}

torch::Tensor ParallelSARDecoderImpl::decode(const torch::Tensor& feat, const torch::Tensor& holistic,
                                             const torch::Tensor& valid_ratio) {
  torch::NoGradGuard no_grad;
  const int64_t n = feat.size(0), steps = spec_.max_text_length;
  const auto start = embedding_(torch::full({n}, start_index(), torch::dtype(torch::kLong).device(feat.device())));
  // [holistic, start, start, ...]: position i + 1 receives the argmax of step i.
  auto input = torch::cat({holistic.unsqueeze(1), start.unsqueeze(1).expand({n, steps, start.size(1)})}, 1).clone();
  std::vector<torch::Tensor> probs;
  for (int64_t i = 1; i <= steps; ++i) {
    const auto p = torch::softmax(attend(input, feat, holistic, valid_ratio, false).select(1, i), -1);
    probs.push_back(p);
    if (i < steps) input.select(1, i + 1).copy_(embedding_(p.argmax(1)));
  }
  return torch::stack(probs, 1);
}

SARHeadImpl::SARHeadImpl(int64_t in_channels, const SarHeadSpec& spec) : spec_(spec), in_channels_(in_channels) {
  validate_sar_head(spec_, "Architecture.Head.SARHead");
  encoder_ = register_module("encoder", SAREncoder(in_channels, spec_));
  decoder_ = register_module("decoder", ParallelSARDecoder(in_channels, spec_));
}

torch::Tensor SARHeadImpl::forward(const torch::Tensor& feat, const torch::Tensor& label,
                                   const torch::Tensor& valid_ratio) {
  check_feat(feat, in_channels_, "SARHead");
  return decoder_(feat, encoder_(feat, valid_ratio), label, valid_ratio);
}

torch::Tensor SARHeadImpl::decode(const torch::Tensor& feat, const torch::Tensor& valid_ratio) {
  check_feat(feat, in_channels_, "SARHead");
  torch::NoGradGuard no_grad;
  return decoder_->decode(feat, encoder_(feat, valid_ratio), valid_ratio);
}

}  // namespace ocrforge
