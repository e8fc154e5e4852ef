#include "ocrforge/train/nn/pplcnet_v3.h"

#include <array>
#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
using S = std::vector<int64_t>;

struct BlockCfg {
  int64_t k, in, out;
  S stride;
  bool se;
};

// PaddleOCR's NET_CONFIG_det / NET_CONFIG_rec: per stage blocks2..blocks6,
// kernel, in and out channels (before scaling), stride, SE.
using NetCfg = std::array<std::vector<BlockCfg>, 5>;

const NetCfg& det_cfg() {
  static const NetCfg cfg = {{
      {{3, 16, 32, {1, 1}, false}},
      {{3, 32, 64, {2, 2}, false}, {3, 64, 64, {1, 1}, false}},
      {{3, 64, 128, {2, 2}, false}, {3, 128, 128, {1, 1}, false}},
      {{3, 128, 256, {2, 2}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false}},
      {{5, 256, 512, {2, 2}, true},
       {5, 512, 512, {1, 1}, true},
       {5, 512, 512, {1, 1}, false},
       {5, 512, 512, {1, 1}, false}},
  }};
  return cfg;
}

const NetCfg& rec_cfg() {
  static const NetCfg cfg = {{
      {{3, 16, 32, {1, 1}, false}},
      {{3, 32, 64, {1, 1}, false}, {3, 64, 64, {1, 1}, false}},
      {{3, 64, 128, {2, 1}, false}, {3, 128, 128, {1, 1}, false}},
      {{3, 128, 256, {1, 2}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false},
       {5, 256, 256, {1, 1}, false}},
      {{5, 256, 512, {2, 1}, true},
       {5, 512, 512, {1, 1}, true},
       {5, 512, 512, {2, 1}, false},
       {5, 512, 512, {1, 1}, false}},
  }};
  return cfg;
}

// Paddle's default Conv2D initialisation (no ParamAttr), zero bias.
void paddle_default(torch::nn::Conv2d& c) {
  paddle_init::default_conv(c->weight, c->options.in_channels());
  if (c->bias.defined()) {
    torch::NoGradGuard g;
    c->bias.zero_();
  }
}

// BN as a per-channel scale and shift (eval), in float64.
std::pair<torch::Tensor, torch::Tensor> bn_affine(const torch::nn::BatchNorm2dImpl& bn) {
  const auto d = [](const torch::Tensor& t) { return t.detach().to(torch::kFloat64); };
  const torch::Tensor scale = d(bn.weight) / torch::sqrt(d(bn.running_var) + bn.options.eps());
  return {scale, d(bn.bias) - d(bn.running_mean) * scale};
}
}  // namespace

int64_t lcnet_make_divisible(double v, int64_t divisor) {
  int64_t nv = std::max<int64_t>(divisor, static_cast<int64_t>(v + divisor / 2.0) / divisor * divisor);
  if (nv < 0.9 * v) nv += divisor;
  return nv;
}

LearnableAffineBlockImpl::LearnableAffineBlockImpl() {
  scale = register_parameter("scale", torch::ones({1}));
  bias = register_parameter("bias", torch::zeros({1}));
}

LCNetConvBNImpl::LCNetConvBNImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride,
                                 int64_t groups) {
  conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                       .stride(stride)
                                                       .padding((kernel - 1) / 2)
                                                       .groups(groups)
                                                       .bias(false)));
  paddle_init::kaiming_normal(conv->weight);
  bn = register_module("bn", torch::nn::BatchNorm2d(out));
}

LCNetActImpl::LCNetActImpl() { lab = register_module("lab", LearnableAffineBlock()); }

LearnableRepLayerImpl::LearnableRepLayerImpl(int64_t in, int64_t out, int64_t kernel, std::vector<int64_t> stride,
                                             int64_t groups, int num_conv_branches, bool deploy)
    : in_(in), out_(out), kernel_(kernel), groups_(groups), has_act_(!(stride[0] == 2 && stride[1] == 2)) {
  if (deploy) {
    reparam_conv = register_module("reparam_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                                         .stride(stride)
                                                                         .padding((kernel - 1) / 2)
                                                                         .groups(groups)
                                                                         .bias(true)));
    paddle_default(reparam_conv);
  } else {
    if (in == out && stride[0] == 1 && stride[1] == 1)
      identity = register_module("identity", torch::nn::BatchNorm2d(in));
    torch::nn::ModuleList list;
    for (int i = 0; i < num_conv_branches; ++i) {
      conv_kxk.push_back(LCNetConvBN(in, out, kernel, stride, groups));
      list->push_back(conv_kxk.back());
    }
    register_module("conv_kxk", list);
    if (kernel > 1) conv_1x1 = register_module("conv_1x1", LCNetConvBN(in, out, 1, stride, groups));
  }
  lab = register_module("lab", LearnableAffineBlock());
  act = register_module("act", LCNetAct());
}

torch::Tensor LearnableRepLayerImpl::forward(torch::Tensor x) {
  torch::Tensor out;
  if (reparam_conv) {
    out = reparam_conv(x);
  } else {
    const auto add = [&](const torch::Tensor& y) { out = out.defined() ? out + y : y; };
    if (identity) add(identity(x));
    if (conv_1x1) add(conv_1x1(x));
    for (auto& c : conv_kxk) add(c(x));
  }
  out = lab(out);
  return has_act_ ? act(out) : out;
}

std::pair<torch::Tensor, torch::Tensor> LearnableRepLayerImpl::fused_kernel_bias() const {
  torch::NoGradGuard g;
  const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
  if (reparam_conv)
    return {reparam_conv->weight.detach().to(torch::kFloat64), reparam_conv->bias.detach().to(torch::kFloat64)};
  torch::Tensor kernel = torch::zeros({out_, in_ / groups_, kernel_, kernel_}, f64);
  torch::Tensor bias = torch::zeros({out_}, f64);
  const auto add_conv_bn = [&](const LCNetConvBN& b) {
    const auto [scale, shift] = bn_affine(*b->bn);
    torch::Tensor k = b->conv->weight.detach().to(torch::kFloat64) * scale.view({-1, 1, 1, 1});
    const int64_t pad = (kernel_ - k.size(-1)) / 2;  // the 1x1 branch sits at the kernel's centre
    if (pad > 0) k = torch::constant_pad_nd(k, {pad, pad, pad, pad});
    kernel += k;
    bias += shift;
  };
  for (const auto& c : conv_kxk) add_conv_bn(c);
  if (conv_1x1) add_conv_bn(conv_1x1);
  if (identity) {
    // The identity as a kxk kernel: 1 at the centre, from channel i to itself.
    const auto [scale, shift] = bn_affine(*identity);
    const int64_t per_group = in_ / groups_;
    for (int64_t i = 0; i < in_; ++i) kernel[i][i % per_group][kernel_ / 2][kernel_ / 2] += scale[i];
    bias += shift;
  }
  return {kernel, bias};
}

LCNetSEImpl::LCNetSEImpl(int64_t channels, int64_t reduction) {
  conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels / reduction, 1)));
  conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels / reduction, channels, 1)));
  paddle_default(conv1);
  paddle_default(conv2);
}

torch::Tensor LCNetSEImpl::forward(torch::Tensor x) {
  auto s = torch::adaptive_avg_pool2d(x, {1, 1});
  s = conv2(torch::relu(conv1(s)));
  return x * torch::hardsigmoid(s);  // relu6(x + 3) / 6 = Paddle's slope 1/6, offset 0.5
}

LCNetV3BlockImpl::LCNetV3BlockImpl(int64_t in, int64_t out, std::vector<int64_t> stride, int64_t dw_size,
                                   bool use_se, int conv_kxk_num, bool deploy) {
  dw_conv = register_module("dw_conv", LearnableRepLayer(in, in, dw_size, stride, in, conv_kxk_num, deploy));
  if (use_se) se = register_module("se", LCNetSE(in));
  pw_conv = register_module("pw_conv", LearnableRepLayer(in, out, 1, S{1, 1}, 1, conv_kxk_num, deploy));
}

torch::Tensor LCNetV3BlockImpl::forward(torch::Tensor x) {
  x = dw_conv(x);
  if (se) x = se(x);
  return pw_conv(x);
}

PPLCNetV3Layers::PPLCNetV3Layers(torch::nn::Module& owner, const PPLCNetV3Spec& spec) {
  if (!(spec.scale > 0)) throw UsageError("Architecture.Backbone.scale: must be > 0 for PPLCNetV3");
  if (spec.conv_kxk_num < 1) throw UsageError("Architecture.Backbone.conv_kxk_num: must be >= 1");
  const double s = spec.scale;
  const NetCfg& cfg = spec.det ? det_cfg() : rec_cfg();
  conv1 = owner.register_module(
      "conv1", LCNetConvBN(spec.in_channels, lcnet_make_divisible(16 * s), 3, S{2, 2}, 1));
  for (size_t stage = 0; stage < cfg.size(); ++stage) {
    torch::nn::Sequential seq;
    for (const auto& b : cfg[stage])
      seq->push_back(LCNetV3Block(lcnet_make_divisible(b.in * s), lcnet_make_divisible(b.out * s), b.stride, b.k,
                                  b.se, spec.conv_kxk_num, spec.deploy));
    blocks.push_back(owner.register_module("blocks" + std::to_string(stage + 2), seq));
  }
  if (!spec.det) {
    out_channels = {lcnet_make_divisible(512 * s)};
    return;
  }
  // The det variant narrows blocks3..blocks6 to MobileNetV3 large's stage
  // widths times scale (PaddleOCR truncates with int(), no rounding).
  const int64_t mv_c[4] = {16, 24, 56, 480};
  torch::nn::ModuleList list;
  for (int i = 0; i < 4; ++i) {
    const int64_t in = lcnet_make_divisible(cfg[i + 1].back().out * s);
    const int64_t out = static_cast<int64_t>(mv_c[i] * s);
    torch::nn::Conv2d c(torch::nn::Conv2dOptions(in, out, 1));
    paddle_default(c);
    layer_list.push_back(c);
    list->push_back(c);
    out_channels.push_back(out);
  }
  owner.register_module("layer_list", list);
}

std::vector<torch::Tensor> PPLCNetV3Layers::features(torch::Tensor x) {
  x = blocks[0]->forward(conv1(x));
  std::vector<torch::Tensor> outs;
  for (size_t i = 1; i < blocks.size(); ++i) {
    x = blocks[i]->forward(x);
    outs.push_back(layer_list.empty() ? x : layer_list[i - 1](x));
  }
  return outs;
}

torch::Tensor PPLCNetV3Layers::last(torch::Tensor x) {
  x = conv1(x);
  for (auto& b : blocks) x = b->forward(x);
  return x;
}

std::vector<std::string> pplcnet_v3_onnx_order(const PPLCNetV3Layers& layers, const std::string& prefix) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& base, std::initializer_list<const char*> leaves) {
    for (const char* leaf : leaves) names.push_back(base + leaf);
  };
  add(prefix + "conv1.", {"conv.weight", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"});
  for (size_t stage = 0; stage < layers.blocks.size(); ++stage) {
    const auto& seq = *layers.blocks[stage];
    for (size_t j = 0; j < seq.size(); ++j) {
      const std::string bp = prefix + "blocks" + std::to_string(stage + 2) + "." + std::to_string(j) + ".";
      const auto* block = seq[j]->as<LCNetV3BlockImpl>();
      const auto rep = [&](const LearnableRepLayer& layer, const std::string& name) {
        if (!layer->deploy())
          throw Error("PPLCNetV3: '" + bp + name + "' is in training form (branches); weights of an inference "
                      "file load into the deploy form only");
        add(bp + name + ".", {"reparam_conv.weight", "reparam_conv.bias", "lab.scale", "lab.bias"});
        if (layer->has_act()) add(bp + name + ".act.lab.", {"scale", "bias"});
      };
      rep(block->dw_conv, "dw_conv");
      if (block->se) add(bp + "se.", {"conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias"});
      rep(block->pw_conv, "pw_conv");
    }
  }
  for (size_t i = 0; i < layers.layer_list.size(); ++i)
    add(prefix + "layer_list." + std::to_string(i) + ".", {"weight", "bias"});
  return names;
}

}  // namespace ocrforge
