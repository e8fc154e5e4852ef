// PPLCNetV3 (nn/pplcnet_v3.h) built as PaddleOCR's PP-OCRv4 mobile detector
// configures it: the Architecture section of PP-OCRv4_mobile_det.yml builds,
// names its tensors as PaddleOCR's state dict does, gives stage outputs of
// the det variant's widths and strides, and a LearnableRepLayer's fused conv
// (the deploy form) equals its branches in eval.
#include "ocrforge/train/nn/pplcnet_v3.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/det/det_pplcnet_v3.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters
#include "test_support.h"

namespace ocrforge {
namespace {

// PaddleOCR's configs/det/PP-OCRv4/PP-OCRv4_mobile_det.yml, Architecture as written there.
const char* kMobileDet = R"(
model_type: det
algorithm: DB
Transform: null
Backbone:
  name: PPLCNetV3
  scale: 0.75
  det: True
Neck:
  name: RSEFPN
  out_channels: 96
  shortcut: True
Head:
  name: DBHead
  k: 50
  fix_nan: True
)";

DetArchSpec mobile_det(bool deploy = false) {
  DetArchSpec s = det_arch_from_yaml(YAML::Load(kMobileDet));
  s.backbone.rep_deploy = deploy;
  return s;
}

std::map<std::string, std::vector<int64_t>> shapes(const torch::nn::Module& m) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const auto& kv : m.named_parameters()) out[kv.key()] = kv.value().sizes().vec();
  for (const auto& kv : m.named_buffers()) out[kv.key()] = kv.value().sizes().vec();
  return out;
}

// Random BN affine parameters and LAB values, then the running statistics of
// one batch (momentum 1): fused kernels differ from the raw ones, and the
// activations stay in a trained network's range (the map is not saturated).
void randomise_bn(DetModel& m) {
  torch::NoGradGuard g;
  for (auto& mod : m->modules(false))
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
      bn->weight.uniform_(0.5, 1.5);
      bn->bias.uniform_(-0.2, 0.2);
      bn->options.momentum(1.0);
    }
  for (auto& kv : m->named_parameters())
    if (kv.key().find("lab.") != std::string::npos) kv.value().uniform_(0.8, 1.2);
  m->train();
  m->forward(torch::randn({2, 3, 96, 64}));
  for (auto& mod : m->modules(false))
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) bn->running_var.clamp_min_(0.05);
}

TEST(PPLCNetV3, MobileDetConfigBuildsWithPaddleOcrNamesAndShapes) {
  DetModel m(mobile_det());
  const auto s = shapes(*m);
  // scale 0.75 with PaddleOCR's make_divisible(v, 16): 16, 32, 48, 96, 192, 384 channels.
  const std::map<std::string, std::vector<int64_t>> expected = {
      {"backbone.conv1.conv.weight", {16, 3, 3, 3}},
      {"backbone.conv1.bn.running_var", {16}},
      {"backbone.blocks2.0.dw_conv.identity.weight", {16}},
      {"backbone.blocks2.0.dw_conv.conv_kxk.3.conv.weight", {16, 1, 3, 3}},
      {"backbone.blocks2.0.dw_conv.conv_1x1.conv.weight", {16, 1, 1, 1}},
      {"backbone.blocks2.0.dw_conv.lab.scale", {1}},
      {"backbone.blocks2.0.dw_conv.act.lab.bias", {1}},
      {"backbone.blocks2.0.pw_conv.conv_kxk.0.conv.weight", {32, 16, 1, 1}},
      {"backbone.blocks5.1.dw_conv.conv_kxk.0.conv.weight", {192, 1, 5, 5}},
      {"backbone.blocks6.0.se.conv1.weight", {48, 192, 1, 1}},
      {"backbone.blocks6.1.se.conv2.bias", {384}},
      {"backbone.layer_list.0.weight", {12, 48, 1, 1}},
      {"backbone.layer_list.3.weight", {360, 384, 1, 1}},
      {"neck.ins_conv.3.in_conv.weight", {96, 360, 1, 1}},
      {"head.binarize.conv1.weight", {24, 96, 3, 3}},
  };
  for (const auto& [name, shape] : expected) {
    ASSERT_TRUE(s.count(name)) << name;
    EXPECT_EQ(s.at(name), shape) << name;
  }
  // No identity branch where the shape changes, no 1x1 branch on a 1x1 layer, no SE outside blocks6.0-1.
  EXPECT_FALSE(s.count("backbone.blocks3.0.dw_conv.identity.weight"));  // stride 2
  EXPECT_FALSE(s.count("backbone.blocks2.0.pw_conv.identity.weight"));  // 16 -> 32
  EXPECT_FALSE(s.count("backbone.blocks2.0.pw_conv.conv_1x1.conv.weight"));
  EXPECT_FALSE(s.count("backbone.blocks6.2.se.conv1.weight"));
  EXPECT_FALSE(s.count("backbone.blocks2.0.dw_conv.reparam_conv.weight"));
}

TEST(PPLCNetV3, DetStageOutputsHaveMobileNetWidthsAtStrides4To32) {
  DetModel m(mobile_det());
  m->eval();
  torch::NoGradGuard g;
  const auto x = torch::randn({2, 3, 64, 96});
  const auto levels = m->backbone()->forward(x);
  ASSERT_EQ(levels.size(), 4u);
  const int64_t widths[4] = {12, 18, 42, 360};  // int([16, 24, 56, 480] * 0.75)
  for (int i = 0; i < 4; ++i) {
    const int64_t stride = int64_t{4} << i;
    EXPECT_EQ(levels[i].sizes(), (std::vector<int64_t>{2, widths[i], 64 / stride, 96 / stride})) << i;
  }
  EXPECT_EQ(m->forward(x).sizes(), (std::vector<int64_t>{2, 1, 64, 96}));
  m->train();
  EXPECT_EQ(m->forward(x).sizes(), (std::vector<int64_t>{2, 3, 64, 96}));
}

TEST(PPLCNetV3, DeployFormEqualsTrainingFormInEval) {
  torch::manual_seed(7);
  DetModel train_form(mobile_det(false));
  randomise_bn(train_form);
  train_form->eval();
  DetModel deploy(mobile_det(true));
  deploy->eval();
  // Every tensor both forms have is copied; each reparam_conv gets its layer's fused conv.
  const auto src = train_form->named_parameters();
  torch::NoGradGuard g;
  for (auto& kv : deploy->named_parameters())
    if (const auto* t = src.find(kv.key())) kv.value().copy_(*t);
  const auto src_buffers = train_form->named_buffers();
  for (auto& kv : deploy->named_buffers())
    if (const auto* t = src_buffers.find(kv.key())) kv.value().copy_(*t);
  const auto& from = dynamic_cast<const DetPPLCNetV3Impl&>(*train_form->backbone()).layers();
  const auto& to = dynamic_cast<const DetPPLCNetV3Impl&>(*deploy->backbone()).layers();
  int fused = 0;
  for (size_t s = 0; s < from.blocks.size(); ++s)
    for (size_t j = 0; j < from.blocks[s]->size(); ++j) {
      const auto* a = (*from.blocks[s])[j]->as<LCNetV3BlockImpl>();
      const auto* b = (*to.blocks[s])[j]->as<LCNetV3BlockImpl>();
      for (auto [x, y] : {std::pair{a->dw_conv, b->dw_conv}, std::pair{a->pw_conv, b->pw_conv}}) {
        const auto [k, bias] = x->fused_kernel_bias();
        y->reparam_conv->weight.copy_(k);
        y->reparam_conv->bias.copy_(bias);
        ++fused;
      }
    }
  EXPECT_EQ(fused, 28);  // 14 blocks
  const auto x = torch::randn({1, 3, 96, 64});
  const auto ya = train_form->forward(x), yb = deploy->forward(x);
  // Most of the map away from the saturated ends: differences would show.
  EXPECT_GT(((ya > 0.01) & (ya < 0.99)).to(torch::kFloat64).mean().item<double>(), 0.5);
  // float32 rounding of two different summation orders through 28 layers.
  const double d = (ya - yb).abs().max().item<double>();
  std::printf("deploy form vs training form (eval): max |diff| %.3g\n", d);
  EXPECT_LE(d, 1e-4);
  // The branches are gone from the deploy form: fewer parameters.
  EXPECT_LT(count_parameters(*deploy), count_parameters(*train_form));
  std::printf("PP-OCRv4 mobile det: %lld parameters in training form, %lld in deploy form\n",
              static_cast<long long>(count_parameters(*train_form)), static_cast<long long>(count_parameters(*deploy)));
}

TEST(PPLCNetV3, RejectsTheRecVariantAndUnsupportedRateKeysForDetection) {
  YAML::Node a = YAML::Load(kMobileDet);
  a["Backbone"]["det"] = false;
  EXPECT_NE(test::message_of<UsageError>([&] { det_arch_from_yaml(a); }).find("Architecture.Backbone.det"),
            std::string::npos);
  a = YAML::Load(kMobileDet);
  a["Backbone"]["lab_lr"] = 0.5;
  EXPECT_NE(test::message_of<UsageError>([&] { det_arch_from_yaml(a); }).find("Backbone.lab_lr"), std::string::npos);
  a = YAML::Load(kMobileDet);
  a["Backbone"]["lab_lr"] = 0.1;  // PaddleOCR's default: accepted
  a["Backbone"]["lr_mult_list"] = YAML::Load("[1.0, 1.0, 1.0, 1.0, 1.0, 1.0]");
  EXPECT_NO_THROW(det_arch_from_yaml(a));
}

}  // namespace
}  // namespace ocrforge
