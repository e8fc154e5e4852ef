// LKPAN (the PP-OCRv3 CML teacher's neck, with IntraCL blocks the PP-OCRv4 /
// v5 server detectors' neck) and DBHead's kernel_list: output shapes in both
// modes, PaddleOCR's sub-layer names, parameter counts worked out by hand
// from db_fpn.py / intracl.py / det_db_head.py, where the IntraCL blocks sit,
// and the config errors.
#include "ocrforge/train/tasks/det/det_lkpan.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters
#include "test_support.h"

using namespace ocrforge;

namespace {
DetArchSpec teacher(int layers, int out_channels, const std::string& mode, int head_kernel = 7) {
  DetArchSpec s;
  s.backbone.name = "ResNet_vd";
  s.backbone.layers = layers;
  s.neck.name = "LKPAN";
  s.neck.out_channels = out_channels;
  s.neck.mode = mode;
  s.head.kernel_list = {head_kernel, 2, 2};
  return s;
}

// The reader's UsageError, or the keys of the Architecture it did not read.
std::string error_of(const std::string& arch_yaml) {
  const YAML::Node n = YAML::Load(arch_yaml);
  return ocrforge::test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
}
}  // namespace

TEST(LKPAN, ShapesInBothModesAndWithTheLargeHeadKernel) {
  for (const std::string mode : {"large", "lite"}) {
    DetModel m(teacher(18, 32, mode));
    for (const auto& hw : std::vector<std::pair<int64_t, int64_t>>{{64, 96}, {128, 32}}) {
      const auto x = torch::randn({2, 3, hw.first, hw.second});
      m->train();
      EXPECT_EQ(m->forward(x).sizes(), (std::vector<int64_t>{2, 3, hw.first, hw.second})) << mode;
      const auto fused = m->neck()->forward(m->backbone()->forward(x));
      EXPECT_EQ(fused.sizes(), (std::vector<int64_t>{2, 32, hw.first / 4, hw.second / 4})) << mode;
      m->eval();
      torch::NoGradGuard no_grad;
      const auto p = m->forward(x);
      EXPECT_EQ(p.sizes(), (std::vector<int64_t>{2, 1, hw.first, hw.second})) << mode;
      EXPECT_GE(p.min().item<double>(), 0.0);
      EXPECT_LE(p.max().item<double>(), 1.0);
    }
  }
}

TEST(LKPAN, SubLayerNamesArePaddleOcrs) {
  DetModel large(teacher(18, 32, "large"));
  const auto names = large->named_parameters();
  for (const char* n : {"neck.ins_conv.3.weight", "neck.inp_conv.0.weight", "neck.pan_head_conv.2.weight",
                        "neck.pan_lat_conv.3.weight", "head.binarize.conv1.weight"})
    EXPECT_NE(names.find(n), nullptr) << n;
  EXPECT_EQ(names.find("neck.pan_head_conv.3.weight"), nullptr);  // three: levels 1..3 only
  EXPECT_EQ(names["head.thresh.conv1.weight"].sizes(), (std::vector<int64_t>{8, 32, 7, 7}));
  EXPECT_EQ(names["neck.inp_conv.1.weight"].sizes(), (std::vector<int64_t>{8, 32, 9, 9}));
  DetModel lite(teacher(18, 32, "lite"));
  const auto lnames = lite->named_parameters();
  for (const char* n : {"neck.inp_conv.0.conv1.weight", "neck.inp_conv.0.bn1.weight", "neck.inp_conv.0.conv2.weight",
                        "neck.inp_conv.0.conv3.weight", "neck.inp_conv.0.conv_end.weight",
                        "neck.pan_lat_conv.2.conv3.weight"})
    EXPECT_NE(lnames.find(n), nullptr) << n;
  // pan_lat_conv keeps its width (out/4 -> out/4): no shortcut conv.
  EXPECT_EQ(lnames.find("neck.pan_lat_conv.2.conv_end.weight"), nullptr);
  EXPECT_EQ(lnames["neck.inp_conv.0.conv1.weight"].sizes(), (std::vector<int64_t>{32, 1, 9, 9}));  // depthwise
}

TEST(LKPAN, ParameterCountsOfTheCmlTeacher) {
  // ResNet50_vd levels 256, 512, 1024, 2048 -> LKPAN 256 (quarter 64):
  //   ins 1x1: (256 + 512 + 1024 + 2048) * 256           =   983,040
  //   inp 9x9: 4 * 256 * 64 * 81                          = 5,308,416
  //   pan_head 3x3 s2: 3 * 64 * 64 * 9                    =   110,592
  //   pan_lat 9x9: 4 * 64 * 64 * 81                       = 1,327,104   -> 7,729,152
  DetModel large(teacher(50, 256, "large"));
  EXPECT_EQ(count_parameters(*large->neck()), 7729152);
  // DBHead on 256 with kernel_list [7, 2, 2], per branch: conv1 256*64*49 +
  // BN 2*64 + convT 64*64*4 + 64 + BN 2*64 + convT 64*1*4 + 1 = 819,777; two branches.
  EXPECT_EQ(count_parameters(*large->head()), 1639554);
  // lite: DSConv(256 -> 64): dw 256*81 + BN 512 + 256*1024 + BN 2048 + 1024*64 + shortcut 256*64 = 367,360 (x4);
  //       DSConv(64 -> 64): dw 64*81 + BN 128 + 64*256 + BN 512 + 256*64 = 38,592 (x4).
  DetModel lite(teacher(50, 256, "lite"));
  EXPECT_EQ(count_parameters(*lite->neck()), 983040 + 4 * 367360 + 110592 + 4 * 38592);
}

TEST(LKPAN, ConfigKeysAndErrors) {
  const DetArchSpec s = det_arch_from_yaml(YAML::Load(
      "{model_type: det, algorithm: DB, Backbone: {name: ResNet_vd, layers: 50}, Neck: {name: LKPAN, "
      "out_channels: 256, mode: Lite}, Head: {name: DBHead, kernel_list: [7, 2, 2], k: 50}}"));
  EXPECT_EQ(s.neck.mode, "lite");  // PaddleOCR lower-cases the mode
  EXPECT_EQ(s.head.kernel_list, (std::vector<int>{7, 2, 2}));
  EXPECT_EQ(det_arch_from_yaml(YAML::Load("{Backbone: {name: ResNet_vd}, Neck: {name: LKPAN}, Head: {name: DBHead}}"))
                .neck.mode,
            "large");
  const std::string base = "{Backbone: {name: ResNet_vd, layers: 18}, ";
  EXPECT_NE(error_of(base + "Neck: {name: LKPAN, mode: huge}, Head: {name: DBHead}}").find("Architecture.Neck.mode"),
            std::string::npos);
  EXPECT_EQ(error_of(base + "Neck: {name: LKPAN, intracl: true}, Head: {name: DBHead}}"), "");
  EXPECT_NE(error_of(base + "Neck: {name: DBFPN, intracl: true}, Head: {name: DBHead}}").find("Neck.intracl"),
            std::string::npos);
  EXPECT_NE(error_of(base + "Neck: {name: LKPAN}, Head: {name: DBHead, kernel_list: [3, 3, 2]}}")
                .find("Architecture.Head.kernel_list"),
            std::string::npos);
  EXPECT_NE(error_of(base + "Neck: {name: LKPAN}, Head: {name: DBHead, kernel_list: [4, 2, 2]}}")
                .find("kernel_list"),
            std::string::npos);
  EXPECT_NE(error_of(base + "Neck: {name: LKPAN, shortcut: true}, Head: {name: DBHead}}").find("Neck.shortcut"),
            std::string::npos);
}

TEST(LKPAN, IntraClBlocksAreNamedAndCountedAsPaddleOcr) {
  // The PP-OCRv4 server neck: LKPAN 256 on PPHGNet_small's 256, 512, 768, 1024:
  //   ins 1x1 (256 + 512 + 768 + 1024) * 256 = 655,360; inp 5,308,416; pan_head
  //   110,592; pan_lat 1,327,104 (as above); incl1..4: IntraCLBlock(64, 2) = 120,320 each.
  DetArchSpec s;
  s.backbone.name = "PPHGNet_small";
  s.neck.name = "LKPAN";
  s.neck.intracl = true;
  DetModel m(s);
  EXPECT_EQ(count_parameters(*m->neck()), 655360 + 5308416 + 110592 + 1327104 + 4 * 120320);
  const auto names = m->named_parameters();
  for (const char* n : {"neck.incl1.conv1x1_reduce_channel.weight", "neck.incl4.c_layer_7x7.weight",
                        "neck.incl2.q_layer_1x3.bias", "neck.incl3.bn.weight"})
    EXPECT_TRUE(names.contains(n)) << n;
  EXPECT_FALSE(names.contains("neck.incl5.bn.weight"));
  EXPECT_FALSE(names.contains("neck.incl0.bn.weight"));
}

// PaddleOCR's LKPAN.forward: p2 = incl1(pan_lat_conv[0](f2)), ..., p5 =
// incl4(pan_lat_conv[3](pan5)), each before its upsampling. Two necks with
// the same weights, one without the blocks: the fused map with intracl is
// the plain one's levels through incl1 (p2, the last quarter, stride 4) and
// incl4 (p5, the first quarter, read at stride 32 and upsampled 8x).
TEST(LKPAN, IntraClBlocksRefineEachLevelBeforeTheUpsampling) {
  const std::vector<int64_t> levels{16, 24, 32, 48};
  torch::manual_seed(4);
  LKPAN plain(levels, 32, "large", false);
  torch::manual_seed(4);  // the IntraCL blocks are made last: the other weights are the same
  LKPAN refined(levels, 32, "large", true);
  ASSERT_EQ(refined->incl().size(), 4u);
  torch::NoGradGuard g;
  for (auto& kv : refined->named_parameters())
    if (kv.key().find("incl") == 0) kv.value().uniform_(-0.2, 0.2);
  plain->eval();
  refined->eval();
  std::vector<torch::Tensor> c;
  for (size_t i = 0; i < levels.size(); ++i) c.push_back(torch::randn({1, levels[i], 32 >> i, 64 >> i}));
  const torch::Tensor a = plain->forward(c), b = refined->forward(c);
  ASSERT_EQ(a.sizes(), b.sizes());
  const int64_t q = 8;  // out_channels / 4
  IntraCLBlock incl1 = refined->incl()[0], incl4 = refined->incl()[3];
  const torch::Tensor p2 = incl1(a.slice(1, 3 * q, 4 * q));
  EXPECT_TRUE(torch::allclose(b.slice(1, 3 * q, 4 * q), p2, 1e-5, 1e-6));
  const torch::Tensor p5 = a.slice(1, 0, q).slice(2, 0, c10::nullopt, 8).slice(3, 0, c10::nullopt, 8);
  const torch::Tensor up = torch::repeat_interleave(
      torch::repeat_interleave(incl4(p5), 8, 2), 8, 3);
  EXPECT_TRUE(torch::allclose(b.slice(1, 0, q), up, 1e-5, 1e-6));
  EXPECT_FALSE(torch::allclose(a, b, 1e-3, 1e-3));  // the blocks do change the map
}
