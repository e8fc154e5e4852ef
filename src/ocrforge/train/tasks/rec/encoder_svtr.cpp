#include "ocrforge/train/tasks/rec/encoder_svtr.h"

namespace ocrforge {

EncoderWithSVTRImpl::EncoderWithSVTRImpl(int64_t in_channels, const NeckSpec& spec)
    : use_guide_(spec.use_guide), out_channels_(spec.dims) {
  const std::vector<int64_t> k{spec.kernel_size.at(0), spec.kernel_size.at(1)};
  const std::vector<int64_t> pad{k[0] / 2, k[1] / 2}, k1{1, 1}, p0{0, 0};
  const int64_t c8 = in_channels / 8, hidden = spec.hidden_dims;
  conv1_ = register_module("conv1", SvtrConvBN(in_channels, c8, k, pad));
  conv2_ = register_module("conv2", SvtrConvBN(c8, hidden, k1, p0));
  blocks_ = torch::nn::ModuleList();
  SvtrBlockSpec o;
  o.dim = hidden;
  o.num_heads = spec.num_heads;
  o.mlp_ratio = spec.mlp_ratio;
  o.qkv_bias = spec.qkv_bias;
  o.drop = spec.drop_rate;
  o.attn_drop = spec.attn_drop_rate;
  o.drop_path = spec.drop_path;
  for (int i = 0; i < spec.depth; ++i) blocks_->push_back(SvtrBlock(o));
  register_module("svtr_block", blocks_);
  norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(1e-6)));
  conv3_ = register_module("conv3", SvtrConvBN(hidden, in_channels, k1, p0));
  conv4_ = register_module("conv4", SvtrConvBN(2 * in_channels, c8, k, pad));
  conv1x1_ = register_module("conv1x1", SvtrConvBN(c8, spec.dims, k1, p0));

  svtr_init_weights(*this);  // PaddleOCR's _init_weights: Linear trunc_normal(0.02) / zero bias, LayerNorm 1 / 0
}

torch::Tensor EncoderWithSVTRImpl::forward(torch::Tensor x) {
  auto z = use_guide_ ? x.detach() : x;
  auto h = z;  // shortcut
  z = conv2_(conv1_(z));
  const auto n = z.size(0), c = z.size(1), hh = z.size(2), ww = z.size(3);
  z = z.flatten(2).transpose(1, 2);  // N, H*W, C
  for (const auto& blk : *blocks_) z = blk->as<SvtrBlock>()->forward(z);
  z = layer_norm_fp32(norm_, z);
  z = z.reshape({n, hh, ww, c}).permute({0, 3, 1, 2});  // back to N,C,H,W
  z = conv3_(z);
  z = torch::cat({h, z}, 1);
  return conv1x1_(conv4_(z));
}

}  // namespace ocrforge
