// DetModel: output shapes for every backbone x neck at two input sizes,
// per-level channels, train/eval outputs, parameter names, channels-last
// equivalence and the errors on bad input.
#include "ocrforge/train/tasks/det/det_model.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using namespace ocrforge;

namespace {
DetArchSpec spec(const std::string& backbone, const std::string& neck, int out_channels = 32) {
  DetArchSpec s;
  s.backbone.name = backbone;
  if (backbone == "ResNet_vd") s.backbone.layers = 18;
  s.neck.name = neck;
  s.neck.out_channels = out_channels;
  return s;
}

std::vector<int64_t> shape(int64_t n, int64_t c, int64_t h, int64_t w) { return {n, c, h, w}; }

bool has_param(const torch::nn::Module& m, const std::string& name) {
  return m.named_parameters().find(name) != nullptr;
}
}  // namespace

TEST(DetModel, ShapesForEveryBackboneAndNeck) {
  struct B {
    std::string name, model_name;
    double scale;
  };
  const std::vector<B> backbones = {{"MobileNetV3", "large", 0.5}, {"MobileNetV3", "small", 0.35},
                                    {"ResNet_vd", "", 1.0}};
  int built = 0;
  for (const auto& b : backbones) {
    for (const std::string neck : {"DBFPN", "RSEFPN"}) {
      auto s = spec(b.name, neck);
      if (!b.model_name.empty()) s.backbone.model_name = b.model_name;
      s.backbone.scale = b.scale;
      torch::manual_seed(0);
      DetModel model(s);
      for (const auto& hw : std::vector<std::pair<int64_t, int64_t>>{{64, 64}, {96, 128}}) {
        SCOPED_TRACE(b.name + " " + b.model_name + " " + neck + " " + std::to_string(hw.first) + "x" +
                     std::to_string(hw.second));
        const auto x = torch::randn({2, 3, hw.first, hw.second});
        model->train();
        const auto feats = model->backbone()->forward(x);
        ASSERT_EQ(feats.size(), 4u);
        for (size_t i = 0; i < 4; ++i) {
          const int64_t stride = int64_t{4} << i;
          EXPECT_EQ(feats[i].sizes(),
                    shape(2, model->backbone()->out_channels()[i], hw.first / stride, hw.second / stride));
        }
        EXPECT_EQ(model->neck()->forward(feats).sizes(), shape(2, 32, hw.first / 4, hw.second / 4));
        const auto maps = model->forward(x);
        EXPECT_EQ(maps.sizes(), shape(2, 3, hw.first, hw.second));
        EXPECT_GE(maps.min().item<float>(), 0.f);
        EXPECT_LE(maps.max().item<float>(), 1.f);
        model->eval();
        torch::NoGradGuard g;
        EXPECT_EQ(model->forward(x).sizes(), shape(2, 1, hw.first, hw.second));
        ++built;
      }
    }
  }
  EXPECT_EQ(built, 12);
}

TEST(DetModel, LevelChannelsMatchPaddleOCR) {
  // det_mobilenet_v3.py's out_channels for large / small x0.5, and ResNet_vd 18 / 50.
  auto s = spec("MobileNetV3", "DBFPN");
  EXPECT_EQ(DetModel(s)->backbone()->out_channels(), (std::vector<int64_t>{16, 24, 56, 480}));
  s.backbone.model_name = "small";
  EXPECT_EQ(DetModel(s)->backbone()->out_channels(), (std::vector<int64_t>{8, 16, 24, 288}));
  s.backbone.scale = 0.35;  // 0.35 * 48 = 16.8 -> 16; 0.35 * 576 = 201.6 -> 200
  EXPECT_EQ(DetModel(s)->backbone()->out_channels(), (std::vector<int64_t>{8, 8, 16, 200}));
  EXPECT_EQ(DetModel(spec("ResNet_vd", "DBFPN"))->backbone()->out_channels(),
            (std::vector<int64_t>{64, 128, 256, 512}));
  auto r50 = spec("ResNet_vd", "DBFPN");
  r50.backbone.layers = 50;
  EXPECT_EQ(DetModel(r50)->backbone()->out_channels(), (std::vector<int64_t>{256, 512, 1024, 2048}));
}

TEST(DetModel, ParameterNamesReadLikePaddleOCR) {
  DetModel mv3(spec("MobileNetV3", "RSEFPN"));
  for (const char* name : {"backbone.conv.conv.weight", "backbone.conv.bn.weight",
                           "backbone.stage0.0.expand_conv.conv.weight", "backbone.stage1.0.mid_se.conv1.weight",
                           "backbone.stage3.3.conv.weight",  // the final 1x1 conv (conv_last) ends stage 3
                           "neck.ins_conv.0.in_conv.weight", "neck.inp_conv.3.se_block.conv2.bias",
                           "head.binarize.conv1.weight", "head.binarize.conv_bn1.weight", "head.binarize.conv2.bias",
                           "head.thresh.conv3.weight"})
    EXPECT_TRUE(has_param(*mv3, name)) << name;
  EXPECT_FALSE(has_param(*mv3, "head.binarize.conv1.bias"));

  DetModel r18(spec("ResNet_vd", "DBFPN"));
  for (const char* name : {"backbone.conv1_1._conv.weight", "backbone.conv1_3._batch_norm.bias",
                           "backbone.bb_0_0.short._conv.weight", "backbone.bb_3_1.conv1._conv.weight",
                           "neck.in2_conv.weight", "neck.p5_conv.weight"})
    EXPECT_TRUE(has_param(*r18, name)) << name;
  EXPECT_FALSE(has_param(*r18, "backbone.bb_0_1.short._conv.weight"));  // identity shortcut
  EXPECT_FALSE(has_param(*r18, "neck.in2_conv.bias"));
}

TEST(DetModel, DisableSeDropsTheSeModules) {
  auto s = spec("MobileNetV3", "DBFPN");
  s.backbone.disable_se = true;
  DetModel m(s);
  for (const auto& p : m->named_parameters())
    EXPECT_EQ(p.key().find("mid_se"), std::string::npos) << p.key();
}

TEST(DetModel, ChannelsLastGivesTheSameMaps) {
  torch::manual_seed(3);
  DetModel model(spec("MobileNetV3", "RSEFPN"));
  model->eval();
  torch::NoGradGuard g;
  const auto x = torch::randn({1, 3, 64, 96});
  const auto plain = model->forward(x);
  model->set_channels_last(true);
  const auto last = model->forward(x);
  EXPECT_TRUE(torch::allclose(plain, last, 1e-5, 1e-5));
}

TEST(DetModel, RejectsSidesNotMultipleOf32) {
  DetModel model(spec("MobileNetV3", "DBFPN"));
  model->eval();
  try {
    model->forward(torch::zeros({1, 3, 64, 80}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("multiples of 32"), std::string::npos) << e.what();
  }
  EXPECT_THROW(model->forward(torch::zeros({1, 1, 64, 64})), Error);  // wrong channel count
}

TEST(DetModel, RejectsABadSpecNamingTheKey) {
  auto s = spec("MobileNetV3", "DBFPN");
  s.backbone.scale = 0.6;
  try {
    DetModel m(s);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Architecture.Backbone.scale"), std::string::npos) << e.what();
  }
}

TEST(DBHead, BinaryMapIsTheStepOfShrinkMinusThreshold) {
  torch::manual_seed(1);
  DBHead head(16, DetHeadSpec{});
  head->train();
  const auto maps = head->forward(torch::randn({2, 16, 4, 6}));
  ASSERT_EQ(maps.sizes(), shape(2, 3, 16, 24));
  const auto p = maps.select(1, 0), t = maps.select(1, 1), b = maps.select(1, 2);
  EXPECT_TRUE(torch::allclose(b, 1.0 / (1.0 + torch::exp(-50.0 * (p - t))), 1e-5, 1e-6));
}
