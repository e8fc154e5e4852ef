// Building blocks of PaddleOCR's SVTR (ppocr/modeling/backbones/rec_svtrnet.py),
// shared by the svtr neck (encoder_svtr.h) and the SVTRNet backbone
// (svtrnet.h): ConvBNLayer (conv, norm, act), Mlp, the mixers (global or
// locally masked multi-head self-attention, the grouped-convolution
// ConvMixer) and the transformer Block. Sub-layer names follow PaddleOCR
// (conv/norm, fc1/fc2, qkv/proj, local_mixer, norm1/mixer/norm2/mlp).
// Token tensors are N x L x C (L = H*W positions, C = channels).
#pragma once
#include <torch/torch.h>

#include <string>

namespace ocrforge {

// The activations SVTR's layers take: the neck's swish (nn.Swish, LibTorch's
// silu), SVTRNet's exact (erf) GELU.
enum class SvtrAct { Swish, Gelu };
torch::Tensor svtr_act(const torch::Tensor& x, SvtrAct act);

// PaddleOCR's ConvBNLayer: conv (KaimingUniform; a bias only where PaddleOCR
// passes bias_attr=None, as SVTRNet's PatchEmbed does) -> BatchNorm -> act. x: N,C,H,W.
struct SvtrConvBNOptions {
  std::vector<int64_t> stride{1, 1};
  bool bias = false;
  SvtrAct act = SvtrAct::Swish;
};
class SvtrConvBNImpl : public torch::nn::Module {
 public:
  SvtrConvBNImpl(int64_t in, int64_t out, std::vector<int64_t> kernel, std::vector<int64_t> padding,
                 const SvtrConvBNOptions& o = {});
  torch::Tensor forward(torch::Tensor x);
  SvtrAct act() const { return act_; }

 private:
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::BatchNorm2d norm_{nullptr};
  SvtrAct act_;
};
TORCH_MODULE(SvtrConvBN);

// fc1 -> act -> dropout -> fc2 -> dropout (the same dropout twice, as PaddleOCR).
class SvtrMlpImpl : public torch::nn::Module {
 public:
  SvtrMlpImpl(int64_t dim, int64_t hidden, double drop, SvtrAct act = SvtrAct::Swish);
  torch::Tensor forward(torch::Tensor x);
  SvtrAct act() const { return act_; }

 private:
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
  torch::nn::Dropout drop_{nullptr};
  SvtrAct act_;
};
TORCH_MODULE(SvtrMlp);

// PaddleOCR's Local mixer mask over an h x w token grid: 0 where key k lies
// in the kh x kw window around query q (rows q, columns k), -inf elsewhere. L x L, L = h*w.
torch::Tensor svtr_local_mask(int64_t h, int64_t w, int64_t kh, int64_t kw);

// Multi-head self-attention: softmax(q k^T * scale [+ mask]) v, scale =
// qk_scale or head_dim^-0.5. With a mask (svtr_local_mask) it is PaddleOCR's
// Local mixer, without one its Global mixer. The mask is no parameter or
// buffer (PaddleOCR keeps it out of the state dict too).
class SvtrAttentionImpl : public torch::nn::Module {
 public:
  SvtrAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double attn_drop, double proj_drop,
                    double qk_scale = 0.0, torch::Tensor mask = {});
  torch::Tensor forward(torch::Tensor x);
  int64_t dim() const { return dim_; }
  int64_t heads() const { return heads_; }
  double scale() const { return scale_; }
  const torch::Tensor& mask() const { return mask_; }  // undefined: Global

 private:
  int64_t dim_, heads_;
  double scale_;
  torch::Tensor mask_;
  torch::nn::Linear qkv_{nullptr}, proj_{nullptr};
  torch::nn::Dropout attn_drop_{nullptr}, proj_drop_{nullptr};
};
TORCH_MODULE(SvtrAttention);

// PaddleOCR's ConvMixer: the tokens as their h x w map, a k x k convolution
// with num_heads groups (KaimingNormal, bias), back to tokens. The grid is
// fixed at construction, as PaddleOCR's (SVTRNet takes one input size).
class SvtrConvMixerImpl : public torch::nn::Module {
 public:
  SvtrConvMixerImpl(int64_t dim, int64_t num_heads, std::vector<int64_t> hw, std::vector<int64_t> kernel);
  torch::Tensor forward(torch::Tensor x);
  const std::vector<int64_t>& hw() const { return hw_; }

 private:
  std::vector<int64_t> hw_;
  torch::nn::Conv2d local_mixer_{nullptr};
};
TORCH_MODULE(SvtrConvMixer);

// The defaults are the svtr neck's (EncoderWithSVTR's blocks).
struct SvtrBlockSpec {
  int64_t dim = 120;
  int64_t num_heads = 8;
  double mlp_ratio = 2.0;
  bool qkv_bias = true;
  double qk_scale = 0.0;  // 0: head_dim^-0.5
  double drop = 0.1;
  double attn_drop = 0.1;
  double drop_path = 0.0;
  double eps = 1e-5;  // EncoderWithSVTR passes epsilon=1e-05 to its blocks
  std::string mixer = "Global";  // Global | Local | Conv
  std::vector<int64_t> hw;                 // token grid (Local, Conv)
  std::vector<int64_t> local_k{7, 11};     // Local window / Conv kernel (h, w)
  SvtrAct act = SvtrAct::Swish;
  bool prenorm = false;
};

// prenorm (PaddleOCR's naming; SVTRNet's default, a post-norm block):
//   x = norm1(x + drop_path(mixer(x)));  x = norm2(x + drop_path(mlp(x)))
// prenorm=False (the neck's), the usual pre-LN residual block:
//   x = x + drop_path(mixer(norm1(x)));  x = x + drop_path(mlp(norm2(x)))
class SvtrBlockImpl : public torch::nn::Module {
 public:
  explicit SvtrBlockImpl(const SvtrBlockSpec& o);
  torch::Tensor forward(torch::Tensor x);
  bool prenorm() const { return prenorm_; }

 private:
  torch::Tensor mix(const torch::Tensor& x);
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
  SvtrAttention attn_{nullptr};        // the child "mixer" for Global / Local
  SvtrConvMixer conv_mixer_{nullptr};  // the child "mixer" for Conv
  SvtrMlp mlp_{nullptr};
  double drop_path_ = 0.0;
  bool prenorm_ = false;
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

// PaddleOCR's _init_weights of SVTR modules, applied to every sub-module of
// `m`: Linear trunc_normal(0.02) with zero bias, LayerNorm 1 / 0.
void svtr_init_weights(torch::nn::Module& m);

}  // namespace ocrforge
