// PPHGNetV2_B4 as a DB backbone (PP-OCRv5_server_det.yml: {name:
// PPHGNetV2_B4, det: True}): four maps of 128, 512, 1024, 2048 channels at
// strides 4..32, PaddleOCR's tensor names under backbone. (with its unused
// last_conv, no fc), the parameter count written out from PaddleOCR's
// rec_pphgnetv2.py, the unused tail getting no gradient, and the config keys.
#include "ocrforge/train/tasks/det/det_pphgnet_v2.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters
#include "test_support.h"

using namespace ocrforge;

namespace {
DetBackboneSpec spec() {
  DetBackboneSpec s;
  s.name = "PPHGNetV2_B4";
  return s;
}

std::string arch_error(const std::string& backbone) {
  const YAML::Node n = YAML::Load("{model_type: det, algorithm: DB, Backbone: " + backbone +
                                  ", Neck: {name: LKPAN, out_channels: 64}, Head: {name: DBHead}}");
  return test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
}
}  // namespace

TEST(DetPPHGNetV2, FourMapsAtStrides4To32) {
  torch::manual_seed(0);
  DetPPHGNetV2Impl b(spec());
  EXPECT_EQ(b.out_channels(), (std::vector<int64_t>{128, 512, 1024, 2048}));
  b.eval();
  torch::NoGradGuard g;
  const auto outs = b.forward(torch::rand({1, 3, 64, 96}));
  ASSERT_EQ(outs.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(outs[i].sizes(), (torch::IntArrayRef{1, b.out_channels()[i], 64 >> (i + 2), 96 >> (i + 2)})) << i;
}

TEST(DetPPHGNetV2, ParameterCountAndNamesArePaddleOcrs) {
  DetPPHGNetV2Impl b(spec());
  // From rec_pphgnetv2.py, with ConvBNAct = conv (no bias) + BN (2 per channel):
  //   stem: stem1 3x3 3->32, stem2a 2x2 32->16, stem2b 2x2 16->32,
  //         stem3 3x3 64->32, stem4 1x1 32->48                             =    25,248
  //   an HGV2_Block(in, mid, out, k) of 6 layers (light: 1x1 then depthwise
  //   k x k) + squeeze 1x1 (in + 6 mid)->out/2 + excitation 1x1 out/2->out;
  //   stage 1 (48, 48, 128, 1 block, k 3, no downsample in det)            =   155,072
  //   stage 2 (128, 96, 512, 1 block, k 3, dw 3x3 downsample)              =   840,704
  //   stage 3 (512, 192, 1024, 3 light blocks, k 5)                        = 5,812,608
  //   stage 4 (1024, 384, 2048, 1 light block, k 5)                        = 6,719,744
  //   last_conv 1x1 2048->2048, no bias (built, never run; no fc in det)  = 4,194,304
  EXPECT_EQ(count_parameters(b), 25248 + 155072 + 840704 + 5812608 + 6719744 + 4194304);
  EXPECT_EQ(count_parameters(b), 17747680);
  DetArchSpec a;
  a.backbone = spec();
  a.neck.name = "LKPAN";
  a.neck.out_channels = 32;
  DetModel m(a);
  const auto params = m->named_parameters();
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"backbone.stem.stem1.conv.weight", {32, 3, 3, 3}},
           {"backbone.stem.stem2a.conv.weight", {16, 32, 2, 2}},
           {"backbone.stages.0.blocks.0.layers.0.conv.weight", {48, 48, 3, 3}},
           {"backbone.stages.1.downsample.conv.weight", {128, 1, 3, 3}},
           {"backbone.stages.2.blocks.2.layers.5.conv2.conv.weight", {192, 1, 5, 5}},
           {"backbone.stages.3.blocks.0.aggregation_excitation_conv.bn.weight", {2048}},
           {"backbone.last_conv.weight", {2048, 2048, 1, 1}},
           {"neck.ins_conv.0.weight", {32, 128, 1, 1}}}) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes().vec(), shape) << name;
  }
  EXPECT_FALSE(params.contains("backbone.fc.weight"));
  EXPECT_FALSE(params.contains("backbone.stages.0.downsample.conv.weight"));
  a.backbone.use_last_conv = false;
  EXPECT_FALSE(DetModel(a)->named_parameters().contains("backbone.last_conv.weight"));
}

TEST(DetPPHGNetV2, TheUnusedTailGetsNoGradient) {
  DetArchSpec a;
  a.backbone = spec();
  a.neck.name = "LKPAN";
  a.neck.out_channels = 32;
  DetModel m(a);
  m->train();
  m->forward(torch::rand({1, 3, 64, 64})).sum().backward();
  const auto params = m->named_parameters();
  EXPECT_FALSE(params["backbone.last_conv.weight"].grad().defined());
  EXPECT_TRUE(params["backbone.stages.3.blocks.0.aggregation_excitation_conv.conv.weight"].grad().defined());
}

TEST(DetPPHGNetV2, ConfigKeysAndErrors) {
  const YAML::Node v5 =
      YAML::LoadFile(test::source_dir() + "/configs/det/PP-OCRv5/PP-OCRv5_server_det.yml")["Architecture"];
  const DetArchSpec s = det_arch_from_yaml(v5);
  EXPECT_EQ(s.backbone.name, "PPHGNetV2_B4");
  EXPECT_TRUE(s.backbone.use_last_conv);
  EXPECT_EQ(arch_error("{name: PPHGNetV2_B4, det: True, text_rec: False, use_ssld: true, out_indices: [0, 1, 2, 3], "
                       "use_last_conv: true, class_expand: 2048, class_num: 1000, dropout_prob: 0.0}"),
            "");
  EXPECT_NE(arch_error("{name: PPHGNetV2_B4, det: False}").find("Architecture.Backbone.det"), std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNetV2_B4, text_rec: True}").find("Architecture.Backbone.text_rec"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNetV2_B4, out_indices: [3]}").find("Architecture.Backbone.out_indices"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNetV2_B4, use_lab: true}").find("Architecture.Backbone.use_lab"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNetV2_B4, class_expand: 0}").find("Architecture.Backbone.class_expand"),
            std::string::npos);
}
