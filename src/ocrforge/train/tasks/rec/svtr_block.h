// Building blocks of PaddleOCR's SVTR (ppocr/modeling/backbones/rec_svtrnet.py)
// as used by the svtr neck: ConvBNLayer (conv, norm, act), Mlp, global
// multi-head self-attention and the pre-norm transformer Block. Sub-layer
// names follow PaddleOCR (conv/norm, fc1/fc2, qkv/proj, norm1/mixer/norm2/mlp).
// Token tensors are N x L x C (L = H*W positions, C = channels).
#pragma once
#include <torch/torch.h>

namespace ocrforge {

// conv (KaimingUniform, no bias) -> BatchNorm -> swish. x: N,C,H,W.
class SvtrConvBNImpl : public torch::nn::Module {
 public:
  SvtrConvBNImpl(int64_t in, int64_t out, std::vector<int64_t> kernel, std::vector<int64_t> padding);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d norm_{nullptr};
};
TORCH_MODULE(SvtrConvBN);

// fc1 -> swish -> dropout -> fc2 -> dropout (the same dropout twice, as PaddleOCR).
class SvtrMlpImpl : public torch::nn::Module {
 public:
  SvtrMlpImpl(int64_t dim, int64_t hidden, double drop);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
  torch::nn::Dropout drop_{nullptr};
};
TORCH_MODULE(SvtrMlp);

// Global attention: softmax(q k^T * head_dim^-0.5) v over all L positions.
class SvtrAttentionImpl : public torch::nn::Module {
 public:
  SvtrAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double attn_drop, double proj_drop);
  torch::Tensor forward(torch::Tensor x);
  int64_t dim() const { return dim_; }
  int64_t heads() const { return heads_; }
  double scale() const { return scale_; }

 private:
  int64_t dim_, heads_;
  double scale_;
  torch::nn::Linear qkv_{nullptr}, proj_{nullptr};
  torch::nn::Dropout attn_drop_{nullptr}, proj_drop_{nullptr};
};
TORCH_MODULE(SvtrAttention);

struct SvtrBlockSpec {
  int64_t dim = 120;
  int64_t num_heads = 8;
  double mlp_ratio = 2.0;
  bool qkv_bias = true;
  double drop = 0.1;
  double attn_drop = 0.1;
  double drop_path = 0.0;
  double eps = 1e-5;  // EncoderWithSVTR passes epsilon=1e-05 to its blocks
};

// prenorm=False in PaddleOCR's naming, i.e. the usual pre-LN residual block:
//   x = x + drop_path(attn(norm1(x)));  x = x + drop_path(mlp(norm2(x)))
class SvtrBlockImpl : public torch::nn::Module {
 public:
  explicit SvtrBlockImpl(const SvtrBlockSpec& o);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
  SvtrAttention mixer_{nullptr};
  SvtrMlp mlp_{nullptr};
  double drop_path_ = 0.0;
};
TORCH_MODULE(SvtrBlock);

// Stochastic depth: in training, zero whole samples with probability p and
// scale the rest by 1/(1-p); identity in eval or when p == 0.
torch::Tensor drop_path(const torch::Tensor& x, double p, bool training);

// LayerNorm in its weights' precision (float32): under CPU bf16 autocast
// (Global.use_amp, loop/cpu_bf16.h) the input arrives in bf16, which
// LibTorch's CPU layer_norm does not take with float32 weights; normalising
// in float32 is also what autocast does for norms where it lists them.
torch::Tensor layer_norm_fp32(torch::nn::LayerNorm norm, const torch::Tensor& x);

}  // namespace ocrforge
