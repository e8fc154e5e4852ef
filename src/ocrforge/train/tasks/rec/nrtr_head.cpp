// NRTR branch modules (nrtr_head.h). Initialisation as PaddleOCR's: every
// Linear inside the Transformer Xavier-normal with zero bias (its
// _init_weights, applied after tgt_word_prj's own draw), the embedding
// N(0, nrtr_dim^-0.5) with the padding row 0 reading zeros, before_gtc's
// Linear Paddle's default Xavier-uniform, the position embedding
// truncated-normal 0.02.
#include "ocrforge/train/tasks/rec/nrtr_head.h"

#include <cmath>
#include <limits>

#include "ocrforge/train/nn/paddle_init.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"

namespace ocrforge {

namespace {

constexpr int64_t kPositions = 5000;  // PositionalEncoding's max_len
constexpr int64_t kPosEmbed = 80;     // AddPos's width in MultiHead

torch::nn::Linear xavier_normal_linear(int64_t in, int64_t out, bool bias = true) {
  torch::nn::Linear l(torch::nn::LinearOptions(in, out).bias(bias));
  torch::NoGradGuard no_grad;
  torch::nn::init::xavier_normal_(l->weight);
  if (bias) l->bias.zero_();
  return l;
}

// A module that only names its children (PaddleOCR's wrapper layers).
std::shared_ptr<torch::nn::Module> holder() { return std::make_shared<torch::nn::Module>(); }

torch::Tensor norm(torch::nn::LayerNorm n, const torch::Tensor& x) { return layer_norm_fp32(n, x); }

}  // namespace

NrtrTokensImpl::NrtrTokensImpl(int64_t in_channels, const NrtrHeadSpec& spec) {
  auto fct = register_module("1", holder());
  fc_ = fct->register_module("fc", torch::nn::Linear(torch::nn::LinearOptions(in_channels, spec.nrtr_dim).bias(false)));
  {
    torch::NoGradGuard no_grad;
    torch::nn::init::xavier_uniform_(fc_->weight);
  }
  if (spec.use_pos) {
    auto add = register_module("2", holder());
    pos_ = add->register_parameter("dec_pos_embed", torch::zeros({1, kPosEmbed, spec.nrtr_dim}));
    paddle_init::trunc_normal(pos_, 0.02);
  }
}

torch::Tensor NrtrTokensImpl::forward(const torch::Tensor& feat) {
  auto x = fc_(feat.flatten(2).transpose(1, 2));  // N x (h*w) x nrtr_dim
  if (pos_.defined()) {
    TORCH_CHECK(x.size(1) <= kPosEmbed, "MultiHead use_pos: ", x.size(1), " backbone tokens, the position embedding has ",
                kPosEmbed);
    x = x + pos_.narrow(1, 0, x.size(1));
  }
  return x;
}

NrtrAttentionImpl::NrtrAttentionImpl(int64_t dim, int64_t heads, bool self_attention)
    : dim_(dim), heads_(heads), scale_(1.0 / std::sqrt(static_cast<double>(dim / heads))), self_(self_attention) {
  if (self_) {
    qkv_ = register_module("qkv", xavier_normal_linear(dim, dim * 3));
  } else {
    q_ = register_module("q", xavier_normal_linear(dim, dim));
    kv_ = register_module("kv", xavier_normal_linear(dim, dim * 2));
  }
  out_proj_ = register_module("out_proj", xavier_normal_linear(dim, dim));
}

torch::Tensor NrtrAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& memory,
                                         const torch::Tensor& mask) {
  const int64_t n = query.size(0), l = query.size(1), hd = dim_ / heads_;
  torch::Tensor q, k, v;
  if (self_) {
    auto qkv = qkv_(query).reshape({n, l, 3, heads_, hd}).permute({2, 0, 3, 1, 4});  // 3, N, heads, L, hd
    q = qkv[0], k = qkv[1], v = qkv[2];
  } else {
    const int64_t s = memory.size(1);
    q = q_(query).reshape({n, l, heads_, hd}).transpose(1, 2);
    auto kv = kv_(memory).reshape({n, s, 2, heads_, hd}).permute({2, 0, 3, 1, 4});
    k = kv[0], v = kv[1];
  }
  auto attn = torch::matmul(q, k.transpose(-2, -1)) * scale_;  // N, heads, L, S
  if (mask.defined()) attn = attn + mask;
  attn = torch::softmax(attn, -1);
  return out_proj_(torch::matmul(attn, v).transpose(1, 2).reshape({n, l, dim_}));
}

NrtrDecoderBlockImpl::NrtrDecoderBlockImpl(int64_t dim, int64_t heads, int64_t feedforward, double dropout) {
  self_attn_ = register_module("self_attn", NrtrAttention(dim, heads, true));
  norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}).eps(1e-5)));
  cross_attn_ = register_module("cross_attn", NrtrAttention(dim, heads, false));
  norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}).eps(1e-5)));
  auto mlp = register_module("mlp", holder());
  fc1_ = mlp->register_module("fc1", xavier_normal_linear(dim, feedforward));
  fc2_ = mlp->register_module("fc2", xavier_normal_linear(feedforward, dim));
  norm3_ = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}).eps(1e-5)));
  dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

torch::Tensor NrtrDecoderBlockImpl::forward(torch::Tensor tgt, const torch::Tensor& memory,
                                            const torch::Tensor& self_mask) {
  tgt = norm(norm1_, tgt + dropout_(self_attn_->forward(tgt, torch::Tensor(), self_mask)));
  tgt = norm(norm2_, tgt + dropout_(cross_attn_->forward(tgt, memory, torch::Tensor())));
  // The MLP's own dropouts (after the ReLU and after fc2), then dropout3.
  auto mlp = dropout_(fc2_(dropout_(torch::relu(fc1_(tgt)))));
  return norm(norm3_, tgt + dropout_(mlp));
}

NrtrTransformerImpl::NrtrTransformerImpl(const NrtrHeadSpec& spec) : spec_(spec) {
  validate_nrtr_head(spec_, "Architecture.Head.NRTRHead");
  const int64_t d = spec_.nrtr_dim, vocab = spec_.vocabulary();
  auto emb = register_module("embedding", holder());
  embedding_ = emb->register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(vocab, d).padding_idx(0)));
  {
    torch::NoGradGuard no_grad;
    embedding_->weight.normal_(0.0, std::pow(static_cast<double>(d), -0.5));
    embedding_->weight[0].zero_();  // Paddle's padding_idx reads zeros whatever the row holds
  }
  // pe[p, 0, 2i] = sin(p * w_i), pe[p, 0, 2i + 1] = cos(p * w_i), w_i = 10000^(-2i / d).
  auto position = torch::arange(kPositions, torch::kFloat).unsqueeze(1);
  auto div = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / static_cast<double>(d)));
  auto pe = torch::zeros({kPositions, d});
  pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)}, torch::sin(position * div));
  pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                torch::cos(position * div).narrow(1, 0, d / 2));
  auto pos = register_module("positional_encoding", holder());
  pe_ = pos->register_buffer("pe", pe.unsqueeze(1));
  pos_dropout_ = register_module("dropout", torch::nn::Dropout(0.1));
  decoder_ = register_module("decoder", torch::nn::ModuleList());
  for (int i = 0; i < spec_.num_decoder_layers; ++i)
    decoder_->push_back(NrtrDecoderBlock(d, spec_.heads(), spec_.feedforward(), 0.1));
  tgt_word_prj_ = register_module("tgt_word_prj", xavier_normal_linear(d, vocab, /*bias=*/false));
}

torch::Tensor NrtrTransformerImpl::forward(const torch::Tensor& tokens, const torch::Tensor& label_gtc,
                                           const torch::Tensor& length) {
  const int64_t m = length.max().item<int64_t>();
  TORCH_CHECK(m + 2 <= label_gtc.size(1), "NRTR label of ", label_gtc.size(1), " positions holds no text of length ", m);
  const auto input = label_gtc.narrow(1, 0, m + 1).to(tokens.device());  // <s> + text (+ </s>, 0 ...), without the last
  auto tgt = embedding_(input) * std::sqrt(static_cast<double>(spec_.nrtr_dim));
  tgt = pos_dropout_(tgt + pe_.narrow(0, 0, m + 1).transpose(0, 1).to(tgt.dtype()));
  const auto mask = causal_mask(m + 1, tgt.options());
  for (const auto& block : *decoder_) tgt = block->as<NrtrDecoderBlockImpl>()->forward(tgt, tokens, mask);
  return tgt_word_prj_(tgt);
}

torch::Tensor causal_mask(int64_t length, const torch::TensorOptions& options) {
  return torch::full({length, length}, -std::numeric_limits<float>::infinity(), options).triu(1);
}

}  // namespace ocrforge
