#include "ocrforge/train/tasks/det/det_mobilenet_v3.h"

namespace ocrforge {
namespace {
using S = std::vector<int64_t>;

struct BlockCfg {
  int64_t k, exp, c;
  bool se;
  const char* act;
  int64_t s;  // stride (both axes)
};

// PaddleOCR's cfg tables: kernel, expansion, out channels, SE, activation, stride.
const std::vector<BlockCfg>& large_cfg() {
  static const std::vector<BlockCfg> cfg = {
      {3, 16, 16, false, "relu", 1},       {3, 64, 24, false, "relu", 2},       {3, 72, 24, false, "relu", 1},
      {5, 72, 40, true, "relu", 2},        {5, 120, 40, true, "relu", 1},       {5, 120, 40, true, "relu", 1},
      {3, 240, 80, false, "hardswish", 2}, {3, 200, 80, false, "hardswish", 1}, {3, 184, 80, false, "hardswish", 1},
      {3, 184, 80, false, "hardswish", 1}, {3, 480, 112, true, "hardswish", 1}, {3, 672, 112, true, "hardswish", 1},
      {5, 672, 160, true, "hardswish", 2}, {5, 960, 160, true, "hardswish", 1}, {5, 960, 160, true, "hardswish", 1}};
  return cfg;
}

const std::vector<BlockCfg>& small_cfg() {
  static const std::vector<BlockCfg> cfg = {
      {3, 16, 16, true, "relu", 2},       {3, 72, 24, false, "relu", 2},      {3, 88, 24, false, "relu", 1},
      {5, 96, 40, true, "hardswish", 2},  {5, 240, 40, true, "hardswish", 1}, {5, 240, 40, true, "hardswish", 1},
      {5, 120, 48, true, "hardswish", 1}, {5, 144, 48, true, "hardswish", 1}, {5, 288, 96, true, "hardswish", 2},
      {5, 576, 96, true, "hardswish", 1}, {5, 576, 96, true, "hardswish", 1}};
  return cfg;
}
}  // namespace

DetMobileNetV3Impl::DetMobileNetV3Impl(const DetBackboneSpec& spec) {
  const bool large = spec.model_name == "large";
  const auto& cfg = large ? large_cfg() : small_cfg();
  const int64_t squeeze = large ? 960 : 576;
  const double s = spec.scale;
  int64_t inplanes = make_divisible(16 * s);
  conv_ = register_module("conv", MV3ConvBN(spec.in_channels, inplanes, 3, S{2, 2}, 1, 1, "hardswish"));
  // A new stage starts at each stride-2 block after the first few: large's
  // block 1 (stride 2) stays in stage 0, so stage 0 ends at stride 4 for both.
  const size_t start_idx = large ? 2 : 0;
  torch::nn::Sequential stage;
  for (size_t i = 0; i < cfg.size(); ++i) {
    const auto& b = cfg[i];
    if (b.s == 2 && i > start_idx) {
      out_channels_.push_back(inplanes);
      stages_.push_back(stage);
      stage = torch::nn::Sequential();
    }
    const int64_t out = make_divisible(s * b.c);
    stage->push_back(ResidualUnit(inplanes, make_divisible(s * b.exp), out, b.k, S{b.s, b.s},
                                  b.se && !spec.disable_se, b.act, b.s == 1 && inplanes == out));
    inplanes = out;
  }
  const int64_t last = make_divisible(s * squeeze);
  stage->push_back(MV3ConvBN(inplanes, last, 1, S{1, 1}, 0, 1, "hardswish"));
  stages_.push_back(stage);
  out_channels_.push_back(last);
  for (size_t i = 0; i < stages_.size(); ++i) register_module("stage" + std::to_string(i), stages_[i]);
}

std::vector<torch::Tensor> DetMobileNetV3Impl::forward(torch::Tensor x) {
  x = conv_(x);
  std::vector<torch::Tensor> outs;
  outs.reserve(stages_.size());
  for (auto& stage : stages_) {
    x = stage->forward(x);
    outs.push_back(x);
  }
  return outs;
}

}  // namespace ocrforge
