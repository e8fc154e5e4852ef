#include "ocrforge/train/tasks/rec/svtr_block.h"

#include <cmath>

#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

SvtrConvBNImpl::SvtrConvBNImpl(int64_t in, int64_t out, std::vector<int64_t> kernel, std::vector<int64_t> padding) {
  conv_ = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel).padding(padding).bias(false)));
  norm_ = register_module("norm", torch::nn::BatchNorm2d(out));
  paddle_init::kaiming_uniform(conv_->weight);
}

torch::Tensor SvtrConvBNImpl::forward(torch::Tensor x) { return torch::silu(norm_(conv_(x))); }

SvtrMlpImpl::SvtrMlpImpl(int64_t dim, int64_t hidden, double drop) {
  fc1_ = register_module("fc1", torch::nn::Linear(dim, hidden));
  fc2_ = register_module("fc2", torch::nn::Linear(hidden, dim));
  drop_ = register_module("drop", torch::nn::Dropout(drop));
}

torch::Tensor SvtrMlpImpl::forward(torch::Tensor x) { return drop_(fc2_(drop_(torch::silu(fc1_(x))))); }

SvtrAttentionImpl::SvtrAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double attn_drop,
                                     double proj_drop)
    : dim_(dim), heads_(num_heads), scale_(1.0 / std::sqrt(static_cast<double>(dim / num_heads))) {
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
  auto attn = attn_drop_(torch::softmax(torch::matmul(q, k.transpose(-2, -1)), -1));  // N,heads,L,L
  auto out = torch::matmul(attn, v).transpose(1, 2).reshape({n, l, dim_});
  return proj_drop_(proj_(out));
}

SvtrBlockImpl::SvtrBlockImpl(const SvtrBlockSpec& o) : drop_path_(o.drop_path) {
  norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.dim}).eps(o.eps)));
  mixer_ = register_module("mixer", SvtrAttention(o.dim, o.num_heads, o.qkv_bias, o.attn_drop, o.drop));
  norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.dim}).eps(o.eps)));
  mlp_ = register_module("mlp", SvtrMlp(o.dim, static_cast<int64_t>(o.dim * o.mlp_ratio), o.drop));
}

torch::Tensor SvtrBlockImpl::forward(torch::Tensor x) {
  x = x + drop_path(mixer_(layer_norm_fp32(norm1_, x)), drop_path_, is_training());
  return x + drop_path(mlp_(layer_norm_fp32(norm2_, x)), drop_path_, is_training());
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

}  // namespace ocrforge
