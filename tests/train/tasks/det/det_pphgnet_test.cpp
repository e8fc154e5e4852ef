// PPHGNet_small as a DB backbone (PP-OCRv4_server_det.yml: {name:
// PPHGNet_small, det: True}): four maps of 256, 512, 768, 1024 channels at
// strides 4..32, PaddleOCR's tensor names under backbone., the parameter
// count written out from PaddleOCR's rec_hgnet.py, and the config keys.
#include "ocrforge/train/tasks/det/det_pphgnet.h"

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
  s.name = "PPHGNet_small";
  return s;
}

std::string arch_error(const std::string& backbone) {
  const YAML::Node n = YAML::Load("{model_type: det, algorithm: DB, Backbone: " + backbone +
                                  ", Neck: {name: LKPAN, out_channels: 64}, Head: {name: DBHead}}");
  return test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
}
}  // namespace

TEST(DetPPHGNet, FourMapsAtStrides4To32) {
  torch::manual_seed(0);
  DetPPHGNetImpl b(spec());
  EXPECT_EQ(b.out_channels(), (std::vector<int64_t>{256, 512, 768, 1024}));
  b.eval();
  torch::NoGradGuard g;
  const auto outs = b.forward(torch::rand({1, 3, 64, 96}));
  ASSERT_EQ(outs.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(outs[i].sizes(), (torch::IntArrayRef{1, b.out_channels()[i], 64 >> (i + 2), 96 >> (i + 2)})) << i;
}

TEST(DetPPHGNet, ParameterCountAndNamesArePaddleOcrs) {
  DetPPHGNetImpl b(spec());
  // From rec_hgnet.py, with ConvBNAct = conv (no bias) + BN (2 per channel):
  //   stem 3x3: 3->64, 64->64, 64->128                                  =   112,832
  //   an HG_Block(in, mid, out) of 6 layers: 3x3 in->mid, 5 x mid->mid,
  //   aggregation 1x1 (in + 6 mid)->out, ESE conv out->out with bias;
  //   stage 1 (128, 128, 256, 1 block, no downsample)                    = 1,181,952
  //   stage 2 (256, 160, 512, 1 block, dw 3x3 downsample)                = 2,411,648
  //   stage 3 (512, 192, 768, 2 blocks, the second from 768)             = 9,476,608
  //   stage 4 (768, 224, 1024, 1 block)                                  = 7,031,680
  EXPECT_EQ(count_parameters(b), 112832 + 1181952 + 2411648 + 9476608 + 7031680);
  EXPECT_EQ(count_parameters(b), 20214720);
  DetArchSpec a;
  a.backbone = spec();
  a.neck.name = "LKPAN";
  a.neck.out_channels = 32;
  DetModel m(a);
  const auto params = m->named_parameters();
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"backbone.stem.0.conv.weight", {64, 3, 3, 3}},
           {"backbone.stem.2.bn.bias", {128}},
           {"backbone.stages.0.blocks.0.layers.0.conv.weight", {128, 128, 3, 3}},
           {"backbone.stages.1.downsample.conv.weight", {256, 1, 3, 3}},
           {"backbone.stages.2.blocks.1.aggregation_conv.conv.weight", {768, 768 + 6 * 192, 1, 1}},
           {"backbone.stages.3.blocks.0.att.conv.bias", {1024}},
           {"neck.ins_conv.3.weight", {32, 1024, 1, 1}}}) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes().vec(), shape) << name;
  }
  EXPECT_FALSE(params.contains("backbone.stages.0.downsample.conv.weight"));  // det: stage 1 keeps the size
}

TEST(DetPPHGNet, ConfigKeysAndErrors) {
  const YAML::Node v4 =
      YAML::LoadFile(test::source_dir() + "/configs/det/PP-OCRv4/PP-OCRv4_server_det.yml")["Architecture"];
  const DetArchSpec s = det_arch_from_yaml(v4);
  EXPECT_EQ(s.backbone.name, "PPHGNet_small");
  EXPECT_TRUE(s.backbone.det);
  EXPECT_EQ(arch_error("{name: PPHGNet_small, det: True, use_ssld: true, out_indices: [0, 1, 2, 3], in_channels: 3}"),
            "");
  EXPECT_EQ(arch_error("{name: PPHGNet_small}"), "");  // det: the task's variant
  EXPECT_NE(arch_error("{name: PPHGNet_small, det: False}").find("Architecture.Backbone.det"), std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNet_small, out_indices: [1, 2, 3]}").find("Architecture.Backbone.out_indices"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNet_small, pretrained: true}").find("Architecture.Backbone.pretrained"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: PPHGNet_small, text_rec: true}")
                .find("unknown config key 'Architecture.Backbone.text_rec'"),
            std::string::npos);
}
