// The NRTR branch of PaddleOCR's MultiHead (PP-OCRv4 / v5): the backbone's
// features as tokens (`before_gtc`: flatten H x W, a Linear to nrtr_dim, an
// optional learnt position embedding) read by a Transformer decoder
// (`gtc_head`, rec_nrtr_head.py's Transformer without encoder layers) that
// predicts the label's next character. Training only: teacher forcing with
// NRTRLabelEncode's labels (nrtr_label_encode.h); inference and export read
// the CTC branch. Parameter names are PaddleOCR's below head.:
// before_gtc.1.fc.weight, gtc_head.embedding.embedding.weight,
// gtc_head.decoder.0.self_attn.qkv.weight, gtc_head.tgt_word_prj.weight, ...
//
// Layouts: feat N x C x h x w (backbone output); tokens N x (h*w) x nrtr_dim;
// label_gtc N x max_text_length int64 ([<s>, text, </s>, 0, ...]); length N int64.
#pragma once
#include <torch/torch.h>

#include "ocrforge/train/tasks/rec/nrtr_head_spec.h"

namespace ocrforge {

// MultiHead's before_gtc: Flatten(2) -> FCTranspose (a Linear without bias
// over the channels) [-> AddPos]. Children "1" (fc) and "2" (dec_pos_embed)
// keep the indices of PaddleOCR's nn.Sequential.
class NrtrTokensImpl : public torch::nn::Module {
 public:
  NrtrTokensImpl(int64_t in_channels, const NrtrHeadSpec& spec);
  // feat N x C x h x w -> N x (h*w) x nrtr_dim
  torch::Tensor forward(const torch::Tensor& feat);

 private:
  torch::nn::Linear fc_{nullptr};
  torch::Tensor pos_;  // 1 x 80 x nrtr_dim, when use_pos
};
TORCH_MODULE(NrtrTokens);

// Multi-head attention of rec_nrtr_head.py: self-attention (qkv) or
// cross-attention (q from the query, kv from the memory), out_proj, scale
// head_dim^-0.5, an additive mask. No attention dropout (MultiHead's rate is 0).
class NrtrAttentionImpl : public torch::nn::Module {
 public:
  NrtrAttentionImpl(int64_t dim, int64_t heads, bool self_attention);
  // query N x L x dim; memory N x S x dim (cross-attention only); mask
  // broadcastable to N x heads x L x S, or undefined.
  torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& memory, const torch::Tensor& mask);

 private:
  int64_t dim_, heads_;
  double scale_;
  bool self_;
  torch::nn::Linear qkv_{nullptr}, q_{nullptr}, kv_{nullptr}, out_proj_{nullptr};
};
TORCH_MODULE(NrtrAttention);

// A post-norm decoder block: self-attention (causal), cross-attention on the
// memory, a ReLU MLP, each added back then LayerNorm'd (norm1..3), residual
// dropout 0.1.
class NrtrDecoderBlockImpl : public torch::nn::Module {
 public:
  NrtrDecoderBlockImpl(int64_t dim, int64_t heads, int64_t feedforward, double dropout);
  torch::Tensor forward(torch::Tensor tgt, const torch::Tensor& memory, const torch::Tensor& self_mask);

 private:
  NrtrAttention self_attn_{nullptr}, cross_attn_{nullptr};
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr}, norm3_{nullptr};
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(NrtrDecoderBlock);

class NrtrTransformerImpl : public torch::nn::Module {
 public:
  explicit NrtrTransformerImpl(const NrtrHeadSpec& spec);
  // Teacher forcing (PaddleOCR's forward_train): with m = max(length), the
  // decoder reads label_gtc[:, :m + 1] and step t predicts label_gtc[:, t + 1]:
  // logits N x (m + 1) x vocabulary.
  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& label_gtc, const torch::Tensor& length);
  const NrtrHeadSpec& spec() const { return spec_; }

 private:
  NrtrHeadSpec spec_;
  // Held by plain modules named as PaddleOCR's Embeddings / PositionalEncoding
  // layers, so the names read embedding.embedding.weight, positional_encoding.pe.
  torch::nn::Embedding embedding_{nullptr};
  torch::Tensor pe_;  // sinusoidal positions, 5000 x 1 x nrtr_dim (PaddleOCR's buffer layout)
  torch::nn::Dropout pos_dropout_{nullptr};
  torch::nn::ModuleList decoder_{nullptr};
  torch::nn::Linear tgt_word_prj_{nullptr};
};
TORCH_MODULE(NrtrTransformer);

// -inf above the diagonal, 0 elsewhere: L x L float (step t sees steps <= t).
torch::Tensor causal_mask(int64_t length, const torch::TensorOptions& options);

}  // namespace ocrforge
