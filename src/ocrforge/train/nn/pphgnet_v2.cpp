#include "ocrforge/train/nn/pphgnet_v2.h"

#include <algorithm>
#include <limits>
#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
using S = std::vector<int64_t>;

struct StageCfg {
  int64_t in, mid, out;
  int blocks;
  bool downsample, light;
  int64_t kernel;
  int layer_num;
  S stride;
};

// PaddleOCR's PPHGNetV2_B4 stage_config_rec / stage_config_det: in, mid, out,
// blocks, is_downsample, light_block, kernel_size, layer_num, stride.
const std::vector<StageCfg>& b4_stages(bool det) {
  static const std::vector<StageCfg> rec = {{48, 48, 128, 1, true, false, 3, 6, {2, 1}},
                                            {128, 96, 512, 1, true, false, 3, 6, {1, 2}},
                                            {512, 192, 1024, 3, true, true, 5, 6, {2, 1}},
                                            {1024, 384, 2048, 1, true, true, 5, 6, {2, 1}}};
  static const std::vector<StageCfg> detc = {{48, 48, 128, 1, false, false, 3, 6, {2, 2}},
                                             {128, 96, 512, 1, true, false, 3, 6, {2, 2}},
                                             {512, 192, 1024, 3, true, true, 5, 6, {2, 2}},
                                             {1024, 384, 2048, 1, true, true, 5, 6, {2, 2}}};
  return det ? detc : rec;
}

// PPHGNetV2_B4's stem_channels: (input), mid, out.
constexpr int64_t kB4StemMid = 32, kB4StemOut = 48;
}  // namespace

HGV2ConvBNActImpl::HGV2ConvBNActImpl(int64_t in, int64_t out, int64_t kernel, S stride, int64_t groups, bool act,
                                     bool use_lab, bool same_pad)
    : act_(act) {
  int64_t pad = (kernel - 1) / 2;
  if (same_pad) {
    // Paddle's "SAME" depends on the input size once the stride exceeds 1;
    // PaddleOCR only uses it at stride 1, where it is fixed.
    if (stride.size() != 2 || stride[0] != 1 || stride[1] != 1)
      throw Error("HGV2ConvBNAct: \"SAME\" padding is implemented for stride 1 only");
    const int64_t before = (kernel - 1) / 2, after = kernel - 1 - before;
    same_pads_ = {before, before, after, after};
    pad = 0;
  }
  conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                       .stride(stride)
                                                       .padding(pad)
                                                       .groups(groups)
                                                       .bias(false)));
  // PPHGNetV2._init_weights: KaimingNormal on every conv, BN weight 1 / bias 0.
  paddle_init::kaiming_normal(conv->weight);
  bn = register_module("bn", torch::nn::BatchNorm2d(out));
  // PaddleOCR creates the LAB only next to an activation.
  if (act && use_lab) lab = register_module("lab", LearnableAffineBlock());
}

torch::Tensor HGV2ConvBNActImpl::forward(torch::Tensor x) {
  if (!same_pads_.empty())
    x = torch::constant_pad_nd(x, {same_pads_[1], same_pads_[3], same_pads_[0], same_pads_[2]});
  x = bn(conv(x));
  if (!act_) return x;
  x = torch::relu(x);
  return lab ? lab(x) : x;
}

HGV2LightConvBNActImpl::HGV2LightConvBNActImpl(int64_t in, int64_t out, int64_t kernel, bool use_lab) {
  conv1 = register_module("conv1", HGV2ConvBNAct(in, out, 1, S{1, 1}, 1, /*act=*/false, use_lab));
  conv2 = register_module("conv2", HGV2ConvBNAct(out, out, kernel, S{1, 1}, out, /*act=*/true, use_lab));
}

HGV2BlockImpl::HGV2BlockImpl(int64_t in, int64_t mid, int64_t out, int64_t kernel, int layer_num, bool identity,
                             bool light_block, bool use_lab)
    : identity_(identity) {
  torch::nn::ModuleList list;
  for (int i = 0; i < layer_num; ++i) {
    const int64_t c = i == 0 ? in : mid;
    if (light_block) {
      light_layers.push_back(HGV2LightConvBNAct(c, mid, kernel, use_lab));
      list->push_back(light_layers.back());
    } else {
      conv_layers.push_back(HGV2ConvBNAct(c, mid, kernel, S{1, 1}, 1, /*act=*/true, use_lab));
      list->push_back(conv_layers.back());
    }
  }
  register_module("layers", list);
  aggregation_squeeze_conv = register_module(
      "aggregation_squeeze_conv", HGV2ConvBNAct(in + layer_num * mid, out / 2, 1, S{1, 1}, 1, true, use_lab));
  aggregation_excitation_conv =
      register_module("aggregation_excitation_conv", HGV2ConvBNAct(out / 2, out, 1, S{1, 1}, 1, true, use_lab));
}

torch::Tensor HGV2BlockImpl::forward(torch::Tensor x) {
  std::vector<torch::Tensor> outs{x};
  torch::Tensor y = x;
  for (auto& l : conv_layers) {
    y = l(y);
    outs.push_back(y);
  }
  for (auto& l : light_layers) {
    y = l(y);
    outs.push_back(y);
  }
  y = aggregation_excitation_conv(aggregation_squeeze_conv(torch::cat(outs, 1)));
  return identity_ ? y + x : y;
}

HGV2StageImpl::HGV2StageImpl(int64_t in, int64_t mid, int64_t out, int block_num, int layer_num, bool is_downsample,
                             bool light_block, int64_t kernel, bool use_lab, S stride) {
  if (is_downsample)
    downsample = register_module("downsample", HGV2ConvBNAct(in, in, 3, stride, in, /*act=*/false, use_lab));
  torch::nn::Sequential seq;
  for (int i = 0; i < block_num; ++i) {
    blocks.push_back(
        HGV2Block(i == 0 ? in : out, mid, out, kernel, layer_num, /*identity=*/i > 0, light_block, use_lab));
    seq->push_back(blocks.back());
  }
  register_module("blocks", seq);
}

torch::Tensor HGV2StageImpl::forward(torch::Tensor x) {
  if (downsample) x = downsample(x);
  for (auto& b : blocks) x = b(x);
  return x;
}

torch::Tensor hgv2_stem_pool(const torch::Tensor& x) {
  const torch::Tensor padded = torch::constant_pad_nd(x, {0, 1, 0, 1}, -std::numeric_limits<double>::infinity());
  return torch::max_pool2d(padded, {2, 2}, {1, 1});
}

HGV2StemBlockImpl::HGV2StemBlockImpl(int64_t in, int64_t mid, int64_t out, bool use_lab, bool text_rec) {
  stem1 = register_module("stem1", HGV2ConvBNAct(in, mid, 3, S{2, 2}, 1, true, use_lab));
  stem2a = register_module("stem2a", HGV2ConvBNAct(mid, mid / 2, 2, S{1, 1}, 1, true, use_lab, /*same_pad=*/true));
  stem2b = register_module("stem2b", HGV2ConvBNAct(mid / 2, mid, 2, S{1, 1}, 1, true, use_lab, /*same_pad=*/true));
  const int64_t s3 = text_rec ? 1 : 2;
  stem3 = register_module("stem3", HGV2ConvBNAct(mid * 2, mid, 3, S{s3, s3}, 1, true, use_lab));
  stem4 = register_module("stem4", HGV2ConvBNAct(mid, out, 1, S{1, 1}, 1, true, use_lab));
}

torch::Tensor HGV2StemBlockImpl::forward(torch::Tensor x) {
  x = stem1(x);
  const torch::Tensor x2 = stem2b(stem2a(x));
  return stem4(stem3(torch::cat({hgv2_stem_pool(x), x2}, 1)));
}

PPHGNetV2Layers::PPHGNetV2Layers(torch::nn::Module& owner, const PPHGNetV2Spec& spec)
    : det(spec.det), out_indices(spec.out_indices) {
  if (spec.variant != "B4")
    throw UsageError("PPHGNetV2_" + spec.variant +
                     ": not supported yet (PaddleOCR's rec_pphgnetv2.py builds only PPHGNetV2_B4: the other "
                     "variants' stage tables have no stride column)");
  if (spec.in_channels < 1) throw UsageError("PPHGNetV2_B4: in_channels must be >= 1");
  for (int i : out_indices)
    if (i < 0 || i > 3)
      throw UsageError("PPHGNetV2_B4.out_indices: " + std::to_string(i) + " is not a stage index (0..3)");
  stem = owner.register_module("stem",
                               HGV2StemBlock(spec.in_channels, kB4StemMid, kB4StemOut, spec.use_lab, spec.text_rec));
  torch::nn::ModuleList list;
  const auto& cfg = b4_stages(det);
  for (size_t i = 0; i < cfg.size(); ++i) {
    const StageCfg& s = cfg[i];
    stages.push_back(HGV2Stage(s.in, s.mid, s.out, s.blocks, s.layer_num, s.downsample, s.light, s.kernel,
                               spec.use_lab, s.stride));
    list->push_back(stages.back());
    if (det && std::find(out_indices.begin(), out_indices.end(), static_cast<int>(i)) != out_indices.end())
      out_channels.push_back(s.out);
  }
  owner.register_module("stages", list);
  if (!det) out_channels = {cfg.back().out};
  if (spec.class_expand < 1 || spec.class_num < 1)
    throw UsageError("PPHGNetV2_B4: class_expand and class_num must be >= 1");
  const int64_t last = cfg.back().out;
  if (spec.use_last_conv) {
    last_conv = owner.register_module(
        "last_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(last, spec.class_expand, 1).bias(false)));
    paddle_init::kaiming_normal(last_conv->weight);
  }
  if (!det) {
    fc = owner.register_module("fc", torch::nn::Linear(spec.use_last_conv ? spec.class_expand : last, spec.class_num));
    torch::NoGradGuard g;
    fc->bias.zero_();
  }
}

std::vector<torch::Tensor> PPHGNetV2Layers::features(torch::Tensor x) {
  x = stem(x);
  std::vector<torch::Tensor> outs;
  for (size_t i = 0; i < stages.size(); ++i) {
    x = stages[i](x);
    if (std::find(out_indices.begin(), out_indices.end(), static_cast<int>(i)) != out_indices.end())
      outs.push_back(x);
  }
  return outs;
}

torch::Tensor PPHGNetV2Layers::last(torch::Tensor x) {
  x = stem(x);
  for (auto& s : stages) x = s(x);
  return x;
}

}  // namespace ocrforge
