// PaddleOCR's recognition ResNet (rec_resnet_vd.py, "ResNet" for rec;
// rec_r34_vd_none_none_ctc / _bilstm_ctc: layers 34): a line 32 high
// becomes one row (height / 32, width / 4), odd heights go through the
// ceil-mode (2, 1) shortcut pool, PaddleOCR's tensor names and shapes
// under backbone. (conv1_1..conv1_3, bb_<stage>_<block>), the parameter
// counts written out from rec_resnet_vd.py, and the config keys (layers
// 50 and more refused: PaddleOCR cannot run them). Export parity:
// rec_model_onnx_test.cpp.
#include "ocrforge/train/tasks/rec/rec_resnet.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "test_support.h"

using namespace ocrforge;

namespace {
BackboneSpec spec(int layers) {
  BackboneSpec s;
  s.name = "ResNet";
  s.layers = layers;
  return s;
}

std::string error_of(const std::string& backbone) {
  const YAML::Node n = YAML::Load("{model_type: rec, algorithm: CRNN, Backbone: " + backbone +
                                  ", Neck: {name: SequenceEncoder, encoder_type: reshape}, Head: {name: CTCHead}}");
  return test::read_error(n, "Architecture", [&] { rec_arch_from_yaml(n, 37); });
}
}  // namespace

TEST(RecResNet, HeightOverThirtyTwoWidthOverFour) {
  torch::manual_seed(0);
  RecResNetImpl b(spec(18));
  EXPECT_EQ(b.out_channels(), 512);
  b.eval();
  torch::NoGradGuard g;
  EXPECT_EQ(b.forward(torch::rand({2, 3, 32, 100})).sizes(), (torch::IntArrayRef{2, 512, 1, 25}));
  EXPECT_EQ(b.forward(torch::rand({1, 3, 48, 64})).sizes(), (torch::IntArrayRef{1, 512, 1, 16}));
  // 36 high: 18 after the stem pool, then 9 -> 5 -> 3 through the (2, 1)
  // strides (the shortcut's ceil-mode pool keeps the odd row), 1 at the end.
  EXPECT_EQ(b.forward(torch::rand({1, 3, 36, 99})).sizes(), (torch::IntArrayRef{1, 512, 1, 25}));
  const std::string msg = test::message_of<UsageError>([&] { b.forward(torch::rand({1, 3, 16, 64})); });
  EXPECT_NE(msg.find("ResNet"), std::string::npos) << msg;  // 16 high shrinks to 1 row before the 2x2 pool
}

// From rec_resnet_vd.py, with ConvBNLayer = conv (no bias) + BN (2 per channel):
//   stem 3x3 3->32, 32->32, 32->64                                      =     28,768
//   BasicBlock(in, f): 3x3 in->f, 3x3 f->f, the first of each stage a
//   1x1 in->f shortcut (stage 0's too, 64->64):
//   34: stages of 3, 4, 6, 3 blocks  226,176 + 1,116,416 + 6,822,400 + 13,114,368
//   18: stages of 2 blocks           152,192 +   525,568 + 2,099,712 +  8,393,728
TEST(RecResNet, ParameterCountsArePaddleOcrs) {
  EXPECT_EQ(count_parameters(RecResNetImpl(spec(34))), 28768 + 226176 + 1116416 + 6822400 + 13114368);
  EXPECT_EQ(count_parameters(RecResNetImpl(spec(18))), 28768 + 152192 + 525568 + 2099712 + 8393728);
}

TEST(RecResNet, NamesAndShapesArePaddleOcrs) {
  RecArchSpec a;
  a.backbone = spec(34);
  a.neck.encoder_type = "reshape";
  a.head.out_channels = 37;
  const RecModel m(a);
  const auto params = m->named_parameters();
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"backbone.conv1_1._conv.weight", {32, 3, 3, 3}},
           {"backbone.conv1_3._batch_norm.weight", {64}},
           {"backbone.bb_0_0.conv0._conv.weight", {64, 64, 3, 3}},
           {"backbone.bb_0_0.short._conv.weight", {64, 64, 1, 1}},
           {"backbone.bb_1_0.conv0._conv.weight", {128, 64, 3, 3}},
           {"backbone.bb_1_0.short._conv.weight", {128, 64, 1, 1}},
           {"backbone.bb_2_5.conv1._conv.weight", {256, 256, 3, 3}},
           {"backbone.bb_3_2.conv1._batch_norm.bias", {512}},
           {"head.fc.weight", {37, 512}}}) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes().vec(), shape) << name;
  }
  EXPECT_FALSE(params.contains("backbone.bb_1_1.short._conv.weight"));  // the identity shortcut
  EXPECT_FALSE(params.contains("backbone.bb_2_6.conv0._conv.weight"));  // 6 blocks in stage 2
  EXPECT_TRUE(m->named_buffers().contains("backbone.bb_3_0.short._batch_norm.running_mean"));
  // The first block of stages 1-3: conv0 with stride (2, 1); its shortcut an
  // average pool (2, 1) and a 1x1 conv with stride 1 (is_vd_mode). Stage
  // 0's first block: a plain 1x1 conv, no pool (if_first).
  const auto modules = m->named_modules();
  const auto conv_stride = [&](const std::string& name) {
    const auto* c = modules[name]->as<torch::nn::Conv2dImpl>();
    return c ? torch::IntArrayRef(c->options.stride()).vec() : std::vector<int64_t>{};
  };
  EXPECT_EQ(conv_stride("backbone.bb_2_0.conv0._conv"), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(conv_stride("backbone.bb_2_0.short._conv"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv_stride("backbone.conv1_1._conv"), (std::vector<int64_t>{1, 1}));
  const auto pool = [&](const std::string& name) { return modules[name]->as<ResNetConvBNImpl>()->pool_kernel(); };
  EXPECT_EQ(pool("backbone.bb_2_0.short"), (std::vector<int64_t>{2, 1}));
  EXPECT_TRUE(pool("backbone.bb_0_0.short").empty());
}

TEST(RecResNet, ConfigKeysAndRefusals) {
  const YAML::Node tipc = YAML::LoadFile(test::source_dir() +
                                         "/test_tipc/configs/rec_r34_vd_none_none_ctc_v2.0/rec_icdar15_train.yml");
  const RecArchSpec s = rec_arch_from_yaml(tipc["Architecture"], 37);
  EXPECT_EQ(s.backbone.name, "ResNet");
  EXPECT_EQ(s.backbone.layers, 34);
  EXPECT_EQ(s.neck.encoder_type, "reshape");
  EXPECT_EQ(error_of("{name: ResNet, layers: 18, in_channels: 3}"), "");
  // PaddleOCR's default (50) and the other bottleneck depths: PaddleOCR
  // reports 512 channels to the neck where the blocks give 2048.
  for (const char* backbone : {"{name: ResNet}", "{name: ResNet, layers: 101}"}) {
    const std::string msg = error_of(backbone);
    EXPECT_NE(msg.find("Architecture.Backbone.layers"), std::string::npos) << msg;
    EXPECT_NE(msg.find("PaddleOCR fails on this config too"), std::string::npos) << msg;
  }
  EXPECT_NE(error_of("{name: ResNet, layers: 20}").find("Architecture.Backbone.layers: 20 is not supported"),
            std::string::npos);
  EXPECT_NE(error_of("{name: ResNet, layers: 34, scale: 0.5}").find("unknown config key 'Architecture.Backbone.scale'"),
            std::string::npos);
}
