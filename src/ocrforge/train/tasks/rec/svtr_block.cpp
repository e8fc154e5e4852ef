#include "ocrforge/train/tasks/rec/svtr_block.h"

#include <cmath>
#include <limits>

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

torch::Tensor svtr_act(const torch::Tensor& x, SvtrAct act) {
  return act == SvtrAct::Gelu ? torch::gelu(x) : torch::silu(x);  // Paddle's GELU is the exact (erf) one
}

SvtrConvBNImpl::SvtrConvBNImpl(int64_t in, int64_t out, std::vector<int64_t> kernel, std::vector<int64_t> padding,
                               const SvtrConvBNOptions& o)
    : act_(o.act) {
  conv_ = register_module(
      "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).stride(o.stride).padding(padding).bias(o.bias)));
  norm_ = register_module("norm", torch::nn::BatchNorm2d(out));
  paddle_init::kaiming_uniform(conv_->weight);
  if (o.bias) {
    torch::NoGradGuard g;
    conv_->bias.zero_();  // Paddle's default bias
  }
}

torch::Tensor SvtrConvBNImpl::forward(torch::Tensor x) { return svtr_act(norm_(conv_(x)), act_); }

SvtrMlpImpl::SvtrMlpImpl(int64_t dim, int64_t hidden, double drop, SvtrAct act) : act_(act) {
  fc1_ = register_module("fc1", torch::nn::Linear(dim, hidden));
  fc2_ = register_module("fc2", torch::nn::Linear(hidden, dim));
  drop_ = register_module("drop", torch::nn::Dropout(drop));
}

torch::Tensor SvtrMlpImpl::forward(torch::Tensor x) { return drop_(fc2_(drop_(svtr_act(fc1_(x), act_)))); }

torch::Tensor svtr_local_mask(int64_t h, int64_t w, int64_t kh, int64_t kw) {
  // PaddleOCR zeroes a kh x kw window at (qh, qw) of a grid padded by the
  // kernel, then crops the padding (kh / 2, kw / 2) off the front: key
  // (h', w') is in the window when h' - qh lies in [-(kh / 2), kh - 1 - kh / 2].
  const auto inside = [](int64_t d, int64_t k) { return d >= -(k / 2) && d <= k - 1 - k / 2; };
  auto mask = torch::full({h * w, h * w}, -std::numeric_limits<float>::infinity());
  auto a = mask.accessor<float, 2>();
  for (int64_t qh = 0; qh < h; ++qh)
    for (int64_t qw = 0; qw < w; ++qw)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x)
          if (inside(y - qh, kh) && inside(x - qw, kw)) a[qh * w + qw][y * w + x] = 0.0f;
  return mask;
}

SvtrAttentionImpl::SvtrAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double attn_drop,
                                     double proj_drop, double qk_scale, torch::Tensor mask)
    : dim_(dim),
      heads_(num_heads),
      scale_(qk_scale > 0 ? qk_scale : 1.0 / std::sqrt(static_cast<double>(dim / num_heads))),
      mask_(std::move(mask)) {
  qkv_ = register_module("qkv", torch::nn::Linear(torch::nn::LinearOptions(dim, dim * 3).bias(qkv_bias)));
  attn_drop_ = register_module("attn_drop", torch::nn::Dropout(attn_drop));
  proj_ = register_module("proj", torch::nn::Linear(dim, dim));
  proj_drop_ = register_module("proj_drop", torch::nn::Dropout(proj_drop));
}

torch::Tensor SvtrAttentionImpl::forward(torch::Tensor x) {
  const auto n = x.size(0), l = x.size(1), hd = dim_ / heads_;
  // N,L,3C -> 3,N,heads,L,head_dim
  auto qkv = qkv_(x).reshape({n, l, 3, heads_, hd}).permute({2, 0, 3, 1, 4});
  auto q = qkv[0] * scale_, k = qkv[1], v = qkv[2];
  auto attn = torch::matmul(q, k.transpose(-2, -1));  // N,heads,L,L
  if (mask_.defined()) {
    // Not a buffer, so it follows the input to its device here.
    if (mask_.device() != attn.device() || mask_.scalar_type() != attn.scalar_type()) mask_ = mask_.to(attn.options());
    attn = attn + mask_;
  }
  attn = attn_drop_(torch::softmax(attn, -1));
  auto out = torch::matmul(attn, v).transpose(1, 2).reshape({n, l, dim_});
  return proj_drop_(proj_(out));
}

SvtrConvMixerImpl::SvtrConvMixerImpl(int64_t dim, int64_t num_heads, std::vector<int64_t> hw,
                                     std::vector<int64_t> kernel)
    : hw_(std::move(hw)) {
  local_mixer_ = register_module("local_mixer", torch::nn::Conv2d(torch::nn::Conv2dOptions(dim, dim, kernel)
                                                                      .padding({kernel.at(0) / 2, kernel.at(1) / 2})
                                                                      .groups(num_heads)));
  paddle_init::kaiming_normal(local_mixer_->weight);
  torch::NoGradGuard g;
  local_mixer_->bias.zero_();
}

torch::Tensor SvtrConvMixerImpl::forward(torch::Tensor x) {
  const auto n = x.size(0), c = x.size(2);
  auto map = x.transpose(1, 2).reshape({n, c, hw_.at(0), hw_.at(1)});
  return local_mixer_(map).flatten(2).transpose(1, 2);
}

SvtrBlockImpl::SvtrBlockImpl(const SvtrBlockSpec& o) : drop_path_(o.drop_path), prenorm_(o.prenorm) {
  norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.dim}).eps(o.eps)));
  if (o.mixer == "Conv") {
    conv_mixer_ = register_module("mixer", SvtrConvMixer(o.dim, o.num_heads, o.hw, o.local_k));
  } else {
    TORCH_CHECK(o.mixer == "Global" || o.mixer == "Local", "SVTR block: unknown mixer ", o.mixer);
    torch::Tensor mask;
    if (o.mixer == "Local") mask = svtr_local_mask(o.hw.at(0), o.hw.at(1), o.local_k.at(0), o.local_k.at(1));
    attn_ = register_module("mixer", SvtrAttention(o.dim, o.num_heads, o.qkv_bias, o.attn_drop, o.drop, o.qk_scale, mask));
  }
  norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.dim}).eps(o.eps)));
  mlp_ = register_module("mlp", SvtrMlp(o.dim, static_cast<int64_t>(o.dim * o.mlp_ratio), o.drop, o.act));
}

torch::Tensor SvtrBlockImpl::mix(const torch::Tensor& x) { return attn_ ? attn_(x) : conv_mixer_(x); }

torch::Tensor SvtrBlockImpl::forward(torch::Tensor x) {
  const bool t = is_training();
  if (prenorm_) {
    x = layer_norm_fp32(norm1_, x + drop_path(mix(x), drop_path_, t));
    return layer_norm_fp32(norm2_, x + drop_path(mlp_(x), drop_path_, t));
  }
  x = x + drop_path(mix(layer_norm_fp32(norm1_, x)), drop_path_, t);
  return x + drop_path(mlp_(layer_norm_fp32(norm2_, x)), drop_path_, t);
}

torch::Tensor drop_path(const torch::Tensor& x, double p, bool training) {
  if (p == 0.0 || !training) return x;
  std::vector<int64_t> shape(x.dim(), 1);
  shape[0] = x.size(0);
  auto keep = torch::floor(torch::rand(shape, x.options()) + (1.0 - p));
  return x / (1.0 - p) * keep;
}

torch::Tensor layer_norm_fp32(torch::nn::LayerNorm norm, const torch::Tensor& x) {
  const auto t = norm->weight.scalar_type();
  return norm->forward(x.scalar_type() == t ? x : x.to(t));
}

void svtr_init_weights(torch::nn::Module& m) {
  torch::NoGradGuard g;
  for (auto& sub : m.modules(/*include_self=*/false)) {
    if (auto* lin = sub->as<torch::nn::Linear>()) {
      paddle_init::trunc_normal(lin->weight, 0.02);
      if (lin->bias.defined()) lin->bias.zero_();
    } else if (auto* ln = sub->as<torch::nn::LayerNorm>()) {
      ln->weight.fill_(1.0);
      ln->bias.zero_();
    }
  }
}

}  // namespace ocrforge
