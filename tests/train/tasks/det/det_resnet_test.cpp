// PaddleOCR's detection ResNet (det_resnet.py, "ResNet" for det; the
// ch_ppocr_server_v2_0_det TIPC config: layers 50): four maps at strides
// 4..32, PaddleOCR's tensor names and shapes under backbone. (the 7x7 stem
// `conv`, blocks res2a.. with res4b<i> in the deep nets), the 1x1 shortcut
// conv with the block's stride and no average pool (ResNet_vd's differs),
// the parameter counts written out from det_resnet.py, and the config keys
// (out_indices / dcn_stage refused by name). Export parity:
// det_model_onnx_test.cpp.
#include "ocrforge/train/tasks/det/det_resnet.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/rec/rec_model.h"  // count_parameters
#include "test_support.h"

using namespace ocrforge;

namespace {
DetBackboneSpec spec(int layers) {
  DetBackboneSpec s;
  s.name = "ResNet";
  s.layers = layers;
  return s;
}

std::string arch_error(const std::string& backbone) {
  const YAML::Node n = YAML::Load("{model_type: det, algorithm: DB, Backbone: " + backbone +
                                  ", Neck: {name: DBFPN, out_channels: 64}, Head: {name: DBHead}}");
  return test::read_error(n, "Architecture", [&] { det_arch_from_yaml(n); });
}

void expect_shapes(const DetModel& m, const std::vector<std::pair<std::string, std::vector<int64_t>>>& expected) {
  const auto params = m->named_parameters();
  for (const auto& [name, shape] : expected) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes().vec(), shape) << name;
  }
}

DetModel model(int layers) {
  DetArchSpec a;
  a.backbone = spec(layers);
  a.neck.out_channels = 32;
  return DetModel(a);
}
}  // namespace

TEST(DetResNet, FourMapsAtStrides4To32) {
  torch::manual_seed(0);
  for (const auto& [layers, channels] : std::vector<std::pair<int, std::vector<int64_t>>>{
           {18, {64, 128, 256, 512}}, {50, {256, 512, 1024, 2048}}}) {
    DetResNetImpl b(spec(layers));
    EXPECT_EQ(b.out_channels(), channels) << layers;
    b.eval();
    torch::NoGradGuard g;
    const auto outs = b.forward(torch::rand({1, 3, 64, 96}));
    ASSERT_EQ(outs.size(), 4u);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(outs[i].sizes(), (torch::IntArrayRef{1, channels[i], 64 >> (i + 2), 96 >> (i + 2)}))
          << layers << " level " << i;
  }
}

// From det_resnet.py, with ConvBNLayer = conv (no bias) + BN (2 per channel):
//   stem 7x7 3->64                                                    =      9,536
//   BottleneckBlock(in, f): 1x1 in->f, 3x3 f->f, 1x1 f->4f, and the
//   first block of each stage a 1x1 in->4f shortcut:
//   50:  stages of 3, 4, 6, 3 blocks  215,808 + 1,219,584 + 7,098,368 + 14,964,736
//   101: the third stage 23 blocks (26,090,496)
//   BasicBlock(in, f): 3x3 in->f, 3x3 f->f, the first of each stage a
//   1x1 in->f shortcut (stage 0's too, 64->64):
//   18:  152,192 + 525,568 + 2,099,712 + 8,393,728
// ResNet50 agrees with torchvision's 25,557,032 less its 2,049,000 FC.
TEST(DetResNet, ParameterCountsArePaddleOcrs) {
  const int64_t r50 = count_parameters(DetResNetImpl(spec(50)));
  EXPECT_EQ(r50, 9536 + 215808 + 1219584 + 7098368 + 14964736);
  EXPECT_EQ(r50, 23508032);
  EXPECT_EQ(count_parameters(DetResNetImpl(spec(101))), 9536 + 215808 + 1219584 + 26090496 + 14964736);
  EXPECT_EQ(count_parameters(DetResNetImpl(spec(18))), 9536 + 152192 + 525568 + 2099712 + 8393728);
}

TEST(DetResNet, NamesAndShapesArePaddleOcrs) {
  const DetModel r50 = model(50);
  expect_shapes(r50, {{"backbone.conv._conv.weight", {64, 3, 7, 7}},
                      {"backbone.conv._batch_norm.weight", {64}},
                      {"backbone.res2a.conv0._conv.weight", {64, 64, 1, 1}},
                      {"backbone.res2a.conv2._conv.weight", {256, 64, 1, 1}},
                      {"backbone.res2a.short._conv.weight", {256, 64, 1, 1}},
                      {"backbone.res3a.conv1._conv.weight", {128, 128, 3, 3}},
                      {"backbone.res3a.short._conv.weight", {512, 256, 1, 1}},
                      {"backbone.res4f.conv0._conv.weight", {256, 1024, 1, 1}},
                      {"backbone.res5c.conv2._batch_norm.bias", {2048}},
                      {"neck.in5_conv.weight", {32, 2048, 1, 1}}});
  const auto params = r50->named_parameters();
  EXPECT_FALSE(params.contains("backbone.res2b.short._conv.weight"));  // the identity shortcut
  EXPECT_FALSE(params.contains("backbone.res4g.conv0._conv.weight"));  // 6 blocks in stage 2
  EXPECT_TRUE(r50->named_buffers().contains("backbone.res5a.short._batch_norm.running_var"));
  // The shortcut is a 1x1 conv with the block's stride 2, no average pool in
  // front (ResNet_vd pools 2x2 and convolves with stride 1).
  const auto modules = r50->named_modules();
  const auto* short3 = modules["backbone.res3a.short"]->as<ResNetConvBNImpl>();
  ASSERT_NE(short3, nullptr);
  EXPECT_TRUE(short3->pool_kernel().empty());
  const auto* conv3 = modules["backbone.res3a.short._conv"]->as<torch::nn::Conv2dImpl>();
  ASSERT_NE(conv3, nullptr);
  EXPECT_EQ(torch::IntArrayRef(conv3->options.stride()).vec(), (std::vector<int64_t>{2, 2}));

  // 101: the third stage's blocks are res4a, res4b1 .. res4b22.
  expect_shapes(model(101), {{"backbone.res4a.short._conv.weight", {1024, 512, 1, 1}},
                             {"backbone.res4b1.conv0._conv.weight", {256, 1024, 1, 1}},
                             {"backbone.res4b22.conv2._conv.weight", {1024, 256, 1, 1}},
                             {"backbone.res5c.conv1._conv.weight", {512, 512, 3, 3}}});
  // 18: BasicBlocks; stage 0's first block keeps the shape and still has a 1x1 shortcut.
  const DetModel r18 = model(18);
  expect_shapes(r18, {{"backbone.res2a.conv0._conv.weight", {64, 64, 3, 3}},
                      {"backbone.res2a.short._conv.weight", {64, 64, 1, 1}},
                      {"backbone.res3a.short._conv.weight", {128, 64, 1, 1}},
                      {"backbone.res5b.conv1._conv.weight", {512, 512, 3, 3}}});
  EXPECT_FALSE(r18->named_parameters().contains("backbone.res2a.conv2._conv.weight"));
}

TEST(DetResNet, ConfigKeysAndRefusals) {
  const YAML::Node tipc = YAML::LoadFile(test::source_dir() +
                                         "/test_tipc/configs/ch_ppocr_server_v2_0_det/det_r50_vd_db.yml")["Architecture"];
  const DetArchSpec s = det_arch_from_yaml(tipc);
  EXPECT_EQ(s.backbone.name, "ResNet");
  EXPECT_EQ(s.backbone.layers, 50);
  EXPECT_EQ(arch_error("{name: ResNet, layers: 50, in_channels: 3, out_indices: [0, 1, 2, 3], "
                       "dcn_stage: [False, False, False, False]}"),
            "");
  EXPECT_EQ(arch_error("{name: ResNet}"), "");  // PaddleOCR's default: 50
  // DB++'s deformable stages (det_r50_db++_icdar15.yml) are not built.
  std::string msg = arch_error("{name: ResNet, layers: 50, dcn_stage: [False, True, True, True]}");
  EXPECT_NE(msg.find("Architecture.Backbone.dcn_stage"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not supported yet"), std::string::npos) << msg;
  // PaddleOCR's BasicBlocks ignore dcn_stage.
  EXPECT_EQ(arch_error("{name: ResNet, layers: 18, dcn_stage: [True, True, True, True]}"), "");
  msg = arch_error("{name: ResNet, out_indices: [1, 2, 3]}");
  EXPECT_NE(msg.find("Architecture.Backbone.out_indices"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not supported yet"), std::string::npos) << msg;
  EXPECT_NE(arch_error("{name: ResNet, layers: 200}")
                .find("Architecture.Backbone.layers: 200 is not supported (known: 18, 34, 50, 101, 152)"),
            std::string::npos);
  EXPECT_NE(arch_error("{name: ResNet, scale: 0.5}").find("unknown config key 'Architecture.Backbone.scale'"),
            std::string::npos);
  // The same two keys on ResNet_vd.
  msg = arch_error("{name: ResNet_vd, layers: 50, dcn_stage: [False, True, True, True]}");
  EXPECT_NE(msg.find("Architecture.Backbone.dcn_stage"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not supported yet"), std::string::npos) << msg;
}
