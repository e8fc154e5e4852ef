#include "ocrforge/train/tasks/rec/mobilenet_v3.h"

namespace ocrforge {
using S = std::vector<int64_t>;  // strides: ModuleHolder cannot forward a braced list

namespace {
struct BlockCfg {
  int64_t k, exp, c;
  bool se;
  const char* act;
  int64_t sh;        // height stride
  bool tuple_stride;  // PaddleOCR writes (s, 1): then `stride == 1` is false and no shortcut is added
};

// PaddleOCR's cfg tables: k, exp, c, se, act, stride.
std::vector<BlockCfg> large_cfg(const std::vector<int>& ls) {
  return {{3, 16, 16, false, "relu", ls.at(0), false},      {3, 64, 24, false, "relu", ls.at(1), true},
          {3, 72, 24, false, "relu", 1, false},            {5, 72, 40, true, "relu", ls.at(2), true},
          {5, 120, 40, true, "relu", 1, false},            {5, 120, 40, true, "relu", 1, false},
          {3, 240, 80, false, "hardswish", 1, false},      {3, 200, 80, false, "hardswish", 1, false},
          {3, 184, 80, false, "hardswish", 1, false},      {3, 184, 80, false, "hardswish", 1, false},
          {3, 480, 112, true, "hardswish", 1, false},      {3, 672, 112, true, "hardswish", 1, false},
          {5, 672, 160, true, "hardswish", ls.at(3), true}, {5, 960, 160, true, "hardswish", 1, false},
          {5, 960, 160, true, "hardswish", 1, false}};
}

std::vector<BlockCfg> small_cfg(const std::vector<int>& ss) {
  return {{3, 16, 16, true, "relu", ss.at(0), true},       {3, 72, 24, false, "relu", ss.at(1), true},
          {3, 88, 24, false, "relu", 1, false},            {5, 96, 40, true, "hardswish", ss.at(2), true},
          {5, 240, 40, true, "hardswish", 1, false},       {5, 240, 40, true, "hardswish", 1, false},
          {5, 120, 48, true, "hardswish", 1, false},       {5, 144, 48, true, "hardswish", 1, false},
          {5, 288, 96, true, "hardswish", ss.at(3), true}, {5, 576, 96, true, "hardswish", 1, false},
          {5, 576, 96, true, "hardswish", 1, false}};
}
}  // namespace

MobileNetV3Impl::MobileNetV3Impl(const BackboneSpec& spec) {
  const bool large = spec.model_name == "large";
  const std::vector<BlockCfg> cfg = large ? large_cfg(spec.large_stride) : small_cfg(spec.small_stride);
  const int64_t squeeze = large ? 960 : 576;
  const double s = spec.scale;
  int64_t inplanes = make_divisible(16 * s);
  conv1_ = register_module("conv1", MV3ConvBN(spec.in_channels, inplanes, 3, S{2, 2}, 1, 1, "hardswish"));
  blocks_ = torch::nn::Sequential();
  for (const auto& b : cfg) {
    const int64_t out = make_divisible(s * b.c);
    // A scalar stride applies to both axes: large_stride[0] = 2 halves the width too, as in PaddleOCR.
    const std::vector<int64_t> stride = b.tuple_stride ? std::vector<int64_t>{b.sh, 1} : std::vector<int64_t>{b.sh, b.sh};
    const bool shortcut = !b.tuple_stride && b.sh == 1 && inplanes == out;
    blocks_->push_back(ResidualUnit(inplanes, make_divisible(s * b.exp), out, b.k, stride, b.se && !spec.disable_se,
                                    b.act, shortcut));
    inplanes = out;
  }
  register_module("blocks", blocks_);
  out_channels_ = make_divisible(s * squeeze);
  conv2_ = register_module("conv2", MV3ConvBN(inplanes, out_channels_, 1, S{1, 1}, 0, 1, "hardswish"));
}

torch::Tensor MobileNetV3Impl::forward(torch::Tensor x) {
  auto y = conv2_(blocks_->forward(conv1_(x)));
  check_pool_input(y, {2, 2}, "MobileNetV3", x);
  return torch::max_pool2d(y, {2, 2}, {2, 2}, {0, 0});
}

}  // namespace ocrforge
