// SVTRNet (svtrnet.h). Initialisation as PaddleOCR's: ConvBNLayer convs
// KaimingUniform, ConvMixer and SubSample convs KaimingNormal, last_conv
// Paddle's default conv draw, conv biases zero, then pos_embed and every
// Linear trunc_normal(0.02) (zero bias), LayerNorms 1 / 0 (_init_weights).
#include "ocrforge/train/tasks/rec/svtrnet.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {

SvtrSubSampleImpl::SvtrSubSampleImpl(int64_t in, int64_t out, bool pool) : pool_(pool) {
  if (pool_) {
    proj_ = register_module("proj", torch::nn::Linear(in, out));
  } else {
    conv_ = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride({2, 1}).padding(1)));
    paddle_init::kaiming_normal(conv_->weight);
    torch::NoGradGuard g;
    conv_->bias.zero_();
  }
  norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({out}).eps(1e-5)));
}

torch::Tensor SvtrSubSampleImpl::forward(const torch::Tensor& map) {
  torch::Tensor tokens;
  if (pool_) {
    // Paddle's AvgPool2D leaves the padding out of the mean (exclusive).
    const auto avg = torch::avg_pool2d(map, {3, 5}, {2, 1}, {1, 2}, /*ceil_mode=*/false, /*count_include_pad=*/false);
    const auto max = torch::max_pool2d(map, {3, 5}, {2, 1}, {1, 2});
    tokens = proj_(((avg + max) * 0.5).flatten(2).transpose(1, 2));
  } else {
    tokens = conv_(map).flatten(2).transpose(1, 2);
  }
  return layer_norm_fp32(norm_, tokens);
}

SvtrNetImpl::SvtrNetImpl(const BackboneSpec& b) : spec_(b.svtr) {
  validate_svtrnet(spec_, "Architecture.Backbone");
  const SvtrNetSpec& s = spec_;
  const SvtrAct act = s.act == "nn.GELU" ? SvtrAct::Gelu : SvtrAct::Swish;

  // PatchEmbed ("pope"): sub_num ConvBNLayers with GELU and a conv bias
  // (bias_attr=None), widths embed_dim / 2^(sub_num - 1 - i).
  auto patch = register_module("patch_embed", std::make_shared<torch::nn::Module>());
  patch_embed_ = patch->register_module("proj", torch::nn::Sequential());
  SvtrConvBNOptions pope;
  pope.stride = {2, 2};
  pope.bias = true;
  pope.act = SvtrAct::Gelu;
  int64_t in = b.in_channels;
  for (int i = 0; i < s.sub_num; ++i) {
    const int64_t out = s.embed_dim[0] >> (s.sub_num - 1 - i);
    patch_embed_->push_back(SvtrConvBN(in, out, std::vector<int64_t>{3, 3}, std::vector<int64_t>{1, 1}, pope));
    in = out;
  }
  const int64_t tokens = static_cast<int64_t>(s.grid_h(0)) * s.grid_w();
  pos_embed_ = register_parameter("pos_embed", torch::zeros({1, tokens, s.embed_dim[0]}));
  pos_drop_ = register_module("pos_drop", torch::nn::Dropout(s.drop_rate));

  // Stochastic depth rises linearly over all blocks (np.linspace(0, rate, sum(depth))).
  const int total = s.depth[0] + s.depth[1] + s.depth[2];
  int k = 0;
  for (int stage = 0; stage < 3; ++stage) {
    if (stage > 0 && s.merges()) {
      sub_sample_[stage - 1] = register_module("sub_sample" + std::to_string(stage),
                                               SvtrSubSample(s.embed_dim[stage - 1], s.embed_dim[stage],
                                                             s.patch_merging == "Pool"));
    }
    torch::nn::ModuleList list;
    for (int i = 0; i < s.depth[stage]; ++i, ++k) {
      SvtrBlockSpec o;
      o.dim = s.embed_dim[stage];
      o.num_heads = s.num_heads[stage];
      o.mixer = s.mixer[k];
      o.hw = {s.grid_h(stage), s.grid_w()};
      o.local_k = {s.local_mixer[stage][0], s.local_mixer[stage][1]};
      o.mlp_ratio = s.mlp_ratio;
      o.qkv_bias = s.qkv_bias;
      o.qk_scale = s.qk_scale;
      o.drop = s.drop_rate;
      o.attn_drop = s.attn_drop_rate;
      o.drop_path = total > 1 ? s.drop_path_rate * k / (total - 1) : 0.0;
      o.eps = s.epsilon;
      o.act = act;
      o.prenorm = s.prenorm;
      list->push_back(SvtrBlock(o));
    }
    blocks_.push_back(register_module("blocks" + std::to_string(stage + 1), list));
  }
  if (s.last_stage) {
    last_conv_ = register_module(
        "last_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(s.embed_dim[2], s.out_channels, 1).bias(false)));
    paddle_init::default_conv(last_conv_->weight, s.embed_dim[2]);
  }
  if (!s.prenorm)
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({s.embed_dim[2]}).eps(s.epsilon)));

  paddle_init::trunc_normal(pos_embed_, 0.02);
  svtr_init_weights(*this);
}

torch::Tensor SvtrNetImpl::to_map(const torch::Tensor& tokens, int64_t h, int64_t w) {
  return tokens.transpose(1, 2).reshape({tokens.size(0), tokens.size(2), h, w});
}

torch::Tensor SvtrNetImpl::forward(torch::Tensor x) {
  const SvtrNetSpec& s = spec_;
  if (x.dim() != 4 || x.size(2) != s.img_size[0] || x.size(3) != s.img_size[1])
    throw UsageError("SVTRNet is built for " + std::to_string(s.img_size[0]) + " x " + std::to_string(s.img_size[1]) +
                     " (H x W) images (Backbone.img_size) but got " +
                     (x.dim() == 4 ? std::to_string(x.size(2)) + " x " + std::to_string(x.size(3)) : "a " +
                      std::to_string(x.dim()) + "-D tensor") +
                     ": its position embedding and mixers fit that one size, as in PaddleOCR; resize every image "
                     "to it (RecResizeImg image_shape [3, " + std::to_string(s.img_size[0]) + ", " +
                     std::to_string(s.img_size[1]) + "], no MultiScaleSampler)");
  const bool training = is_training();
  auto t = patch_embed_->forward(x).flatten(2).transpose(1, 2);  // N, L, C0
  t = pos_drop_(t + pos_embed_);
  for (int stage = 0; stage < 3; ++stage) {
    if (stage > 0 && sub_sample_[stage - 1])
      t = sub_sample_[stage - 1](to_map(t, s.grid_h(stage - 1), s.grid_w()));
    for (const auto& blk : *blocks_[stage]) t = blk->as<SvtrBlock>()->forward(t);
  }
  if (norm_) t = layer_norm_fp32(norm_, t);
  auto map = to_map(t, s.grid_h(2), s.grid_w());
  if (!last_conv_) return map;
  map = torch::hardswish(last_conv_(torch::adaptive_avg_pool2d(map, {1, s.out_char_num})));
  return downscale_in_infer_dropout(map, s.last_drop, training);
}

torch::Tensor downscale_in_infer_dropout(const torch::Tensor& x, double p, bool training) {
  if (p == 0.0) return x;
  if (!training) return x * (1.0 - p);
  return x * torch::bernoulli(torch::full_like(x, 1.0 - p));
}

torch::Tensor adaptive_pool_matrix(int64_t width, int64_t out) {
  auto m = torch::zeros({width, out});
  for (int64_t j = 0; j < out; ++j) {
    // LibTorch's / Paddle's adaptive bins: [floor(j W / out), ceil((j + 1) W / out)).
    const int64_t start = (j * width) / out, end = ((j + 1) * width + out - 1) / out;
    m.narrow(0, start, end - start).select(1, j).fill_(1.0 / static_cast<double>(end - start));
  }
  return m;
}

}  // namespace ocrforge
