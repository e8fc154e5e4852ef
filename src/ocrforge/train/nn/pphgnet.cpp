#include "ocrforge/train/nn/pphgnet.h"

#include <algorithm>
#include <string>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/paddle_init.h"

namespace ocrforge {
namespace {
using S = std::vector<int64_t>;

struct StageCfg {
  int64_t in, mid, out;
  int blocks;
  bool downsample;
  S stride;
};

// PaddleOCR's stage_config_rec / stage_config_det of PPHGNet_small.
const std::vector<StageCfg>& stage_cfg(bool det) {
  static const std::vector<StageCfg> rec = {{128, 128, 256, 1, true, {2, 1}},
                                            {256, 160, 512, 1, true, {1, 2}},
                                            {512, 192, 768, 2, true, {2, 1}},
                                            {768, 224, 1024, 1, true, {2, 1}}};
  static const std::vector<StageCfg> detc = {{128, 128, 256, 1, false, {2, 2}},
                                             {256, 160, 512, 1, true, {2, 2}},
                                             {512, 192, 768, 2, true, {2, 2}},
                                             {768, 224, 1024, 1, true, {2, 2}}};
  return det ? detc : rec;
}

constexpr int kLayerNum = 6;  // PPHGNet_small's layer_num
const S kStem = {64, 64, 128};
}  // namespace

HGConvBNActImpl::HGConvBNActImpl(int64_t in, int64_t out, int64_t kernel, S stride, int64_t groups, bool act)
    : act_(act) {
  conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                       .stride(stride)
                                                       .padding((kernel - 1) / 2)
                                                       .groups(groups)
                                                       .bias(false)));
  // PPHGNet._init_weights: KaimingNormal on every conv, BN weight 1 / bias 0.
  paddle_init::kaiming_normal(conv->weight);
  bn = register_module("bn", torch::nn::BatchNorm2d(out));
}

torch::Tensor HGConvBNActImpl::forward(torch::Tensor x) {
  x = bn(conv(x));
  return act_ ? torch::relu(x) : x;
}

HGESEImpl::HGESEImpl(int64_t channels) {
  conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels, 1).bias(true)));
  paddle_init::kaiming_normal(conv->weight);
  torch::NoGradGuard g;
  conv->bias.zero_();
}

torch::Tensor HGESEImpl::forward(torch::Tensor x) {
  return x * torch::sigmoid(conv(x.mean({2, 3}, /*keepdim=*/true)));
}

HGBlockImpl::HGBlockImpl(int64_t in, int64_t mid, int64_t out, int layer_num, bool identity) : identity_(identity) {
  torch::nn::ModuleList list;
  for (int i = 0; i < layer_num; ++i) {
    layers.push_back(HGConvBNAct(i == 0 ? in : mid, mid, 3, S{1, 1}, 1, true));
    list->push_back(layers.back());
  }
  register_module("layers", list);
  aggregation_conv = register_module("aggregation_conv", HGConvBNAct(in + layer_num * mid, out, 1, S{1, 1}, 1, true));
  att = register_module("att", HGESE(out));
}

torch::Tensor HGBlockImpl::forward(torch::Tensor x) {
  std::vector<torch::Tensor> outs{x};
  torch::Tensor y = x;
  for (auto& l : layers) {
    y = l(y);
    outs.push_back(y);
  }
  y = att(aggregation_conv(torch::cat(outs, 1)));
  return identity_ ? y + x : y;
}

HGStageImpl::HGStageImpl(int64_t in, int64_t mid, int64_t out, int block_num, int layer_num, bool ds, S stride) {
  if (ds) downsample = register_module("downsample", HGConvBNAct(in, in, 3, stride, in, false));
  torch::nn::Sequential seq;
  for (int i = 0; i < block_num; ++i) {
    blocks.push_back(HGBlock(i == 0 ? in : out, mid, out, layer_num, /*identity=*/i > 0));
    seq->push_back(blocks.back());
  }
  register_module("blocks", seq);
}

torch::Tensor HGStageImpl::forward(torch::Tensor x) {
  if (downsample) x = downsample(x);
  for (auto& b : blocks) x = b(x);
  return x;
}

PPHGNetLayers::PPHGNetLayers(torch::nn::Module& owner, const PPHGNetSpec& spec)
    : det(spec.det), out_indices(spec.out_indices) {
  if (spec.in_channels < 1) throw UsageError("PPHGNet_small: in_channels must be >= 1");
  for (int i : out_indices)
    if (i < 0 || i > 3)
      throw UsageError("PPHGNet_small.out_indices: " + std::to_string(i) + " is not a stage index (0..3)");
  torch::nn::Sequential stem_seq;
  int64_t c = spec.in_channels;
  for (size_t i = 0; i < kStem.size(); ++i) {
    const int64_t s = i == 0 ? 2 : 1;
    stem.push_back(HGConvBNAct(c, kStem[i], 3, S{s, s}, 1, true));
    stem_seq->push_back(stem.back());
    c = kStem[i];
  }
  owner.register_module("stem", stem_seq);
  torch::nn::ModuleList list;
  const auto& cfg = stage_cfg(det);
  for (size_t i = 0; i < cfg.size(); ++i) {
    const StageCfg& s = cfg[i];
    stages.push_back(HGStage(s.in, s.mid, s.out, s.blocks, kLayerNum, s.downsample, s.stride));
    list->push_back(stages.back());
    if (det && std::find(out_indices.begin(), out_indices.end(), static_cast<int>(i)) != out_indices.end())
      out_channels.push_back(s.out);
  }
  owner.register_module("stages", list);
  if (!det) out_channels = {cfg.back().out};
}

std::vector<torch::Tensor> PPHGNetLayers::features(torch::Tensor x) {
  for (auto& s : stem) x = s(x);
  if (det) x = torch::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
  std::vector<torch::Tensor> outs;
  for (size_t i = 0; i < stages.size(); ++i) {
    x = stages[i](x);
    if (std::find(out_indices.begin(), out_indices.end(), static_cast<int>(i)) != out_indices.end())
      outs.push_back(x);
  }
  return outs;
}

torch::Tensor PPHGNetLayers::last(torch::Tensor x) {
  for (auto& s : stem) x = s(x);
  if (det) x = torch::max_pool2d(x, {3, 3}, {2, 2}, {1, 1});
  for (auto& s : stages) x = s(x);
  return x;
}

}  // namespace ocrforge
