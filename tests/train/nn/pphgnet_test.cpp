// PPHGNet_small (nn/pphgnet.h) as PaddleOCR builds it: the rec variant of
// PP-OCRv4_server_rec.yml turns a 48 x 320 line into 1024 x 3 x 80 (1 x 40
// after the line pool, in both modes), the det variant gives four maps at
// strides 4..32, tensor names are PaddleOCR's, and the parameter count
// equals the one written out from PaddleOCR's layer definitions.
#include "ocrforge/train/nn/pphgnet.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet.h"
#include "test_support.h"

namespace ocrforge {
namespace {

struct Holder : torch::nn::Module {
  explicit Holder(const PPHGNetSpec& s) : layers(*this, s) {}
  PPHGNetLayers layers;
};

int64_t n_params(const torch::nn::Module& m) {
  int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

// PaddleOCR's ConvBNAct: conv without bias + BN weight and bias.
int64_t conv_bn(int64_t in, int64_t out, int64_t k, int64_t groups = 1) { return in / groups * out * k * k + 2 * out; }
// HG_Block with layer_num 6: a chain of six 3x3 ConvBNAct, a 1x1 aggregation
// over the concatenation of the input and the six outputs, ESE (a 1x1 conv with bias).
int64_t hg_block(int64_t in, int64_t mid, int64_t out) {
  return conv_bn(in, mid, 3) + 5 * conv_bn(mid, mid, 3) + conv_bn(in + 6 * mid, out, 1) + out * out + out;
}
// HG_Stage: the depthwise downsampling ConvBNAct, then the blocks.
int64_t hg_stage(int64_t in, int64_t mid, int64_t out, int blocks, bool downsample) {
  return (downsample ? conv_bn(in, in, 3, in) : 0) + hg_block(in, mid, out) + (blocks - 1) * hg_block(out, mid, out);
}
int64_t pphgnet_small_params(bool det) {
  const int64_t stem = conv_bn(3, 64, 3) + conv_bn(64, 64, 3) + conv_bn(64, 128, 3);
  // stage_config_rec / stage_config_det: in, mid, out, blocks; stage 1 downsamples in rec only.
  return stem + hg_stage(128, 128, 256, 1, !det) + hg_stage(256, 160, 512, 1, true) +
         hg_stage(512, 192, 768, 2, true) + hg_stage(768, 224, 1024, 1, true);
}

TEST(PPHGNet, RecVariantTurnsALineInto1024By3By80) {
  torch::manual_seed(0);
  Holder h{PPHGNetSpec{}};
  h.eval();
  torch::NoGradGuard g;
  const torch::Tensor y = h.layers.last(torch::rand({2, 3, 48, 320}));
  EXPECT_EQ(y.sizes(), (torch::IntArrayRef{2, 1024, 3, 80}));
  EXPECT_EQ(h.layers.out_channels, (std::vector<int64_t>{1024}));
}

TEST(PPHGNet, ParameterCountIsPaddleOcrs) {
  Holder rec{PPHGNetSpec{}};
  EXPECT_EQ(n_params(rec), pphgnet_small_params(false));
  PPHGNetSpec d;
  d.det = true;
  Holder det{d};
  EXPECT_EQ(n_params(det), pphgnet_small_params(true));
  EXPECT_NE(pphgnet_small_params(false), pphgnet_small_params(true));  // stage 1's downsampling conv
}

TEST(PPHGNet, TensorNamesArePaddleOcrs) {
  Holder h{PPHGNetSpec{}};
  const auto params = h.named_parameters();
  const auto buffers = h.named_buffers();
  for (const char* name : {"stem.0.conv.weight", "stem.2.bn.bias", "stages.0.downsample.conv.weight",
                           "stages.2.blocks.1.layers.5.conv.weight", "stages.2.blocks.1.aggregation_conv.bn.weight",
                           "stages.3.blocks.0.att.conv.bias"})
    EXPECT_TRUE(params.contains(name)) << name;
  EXPECT_TRUE(buffers.contains("stages.3.blocks.0.layers.0.bn.running_var"));
  EXPECT_FALSE(params.contains("stages.0.blocks.0.layers.6.conv.weight"));  // layer_num 6: layers 0..5
  // The second block of stage 3 adds its input back (identity), the first does not.
  EXPECT_FALSE(h.layers.stages[2]->blocks[0]->identity());
  EXPECT_TRUE(h.layers.stages[2]->blocks[1]->identity());
}

TEST(PPHGNet, DetVariantGivesFourMapsAtStrides4To32) {
  PPHGNetSpec s;
  s.det = true;
  Holder h{s};
  h.eval();
  torch::NoGradGuard g;
  const auto outs = h.layers.features(torch::rand({1, 3, 64, 96}));
  ASSERT_EQ(outs.size(), 4u);
  const int64_t widths[4] = {256, 512, 768, 1024};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(outs[i].size(1), widths[i]);
    EXPECT_EQ(outs[i].size(2), 64 >> (i + 2));
    EXPECT_EQ(outs[i].size(3), 96 >> (i + 2));
  }
  EXPECT_EQ(h.layers.out_channels, (std::vector<int64_t>{256, 512, 768, 1024}));
  EXPECT_THROW(Holder(PPHGNetSpec{true, 3, {0, 4}}), UsageError);
}

TEST(PPHGNet, RecBackboneGivesFortyStepsForALineInBothModes) {
  BackboneSpec b;
  b.name = "PPHGNet_small";
  RecPPHGNetImpl net(b);
  torch::NoGradGuard g;
  const torch::Tensor x = torch::rand({1, 3, 48, 320});
  net.train();
  EXPECT_EQ(net.forward(x).sizes(), (torch::IntArrayRef{1, 1024, 1, 40}));
  net.eval();
  EXPECT_EQ(net.forward(x).sizes(), (torch::IntArrayRef{1, 1024, 1, 40}));
  // Too small for the eval pool: a usage error naming the backbone, not LibTorch's.
  const std::string msg = test::message_of<UsageError>([&] { net.forward(torch::rand({1, 3, 16, 64})); });
  EXPECT_NE(msg.find("PPHGNet_small"), std::string::npos) << msg;
}

// The Architecture of PaddleOCR's PP-OCRv4_server_rec.yml builds (with its
// NRTR guidance branch), keys PaddleOCR's constructor takes are accepted and
// a backbone download is refused.
TEST(PPHGNet, ServerRecConfigBuilds) {
  const YAML::Node arch =
      YAML::LoadFile(test::source_dir() + "/configs/rec/PP-OCRv4/PP-OCRv4_server_rec.yml")["Architecture"];
  const RecArchSpec spec = rec_arch_from_yaml(arch, 6625);
  EXPECT_EQ(spec.backbone.name, "PPHGNet_small");
  ASSERT_TRUE(spec.nrtr.has_value());
  EXPECT_EQ(spec.neck.kernel_size, (std::vector<int>{1, 3}));
  RecModel m(spec);
  m->eval();
  torch::NoGradGuard g;
  EXPECT_EQ(m->predict(torch::rand({1, 3, 48, 320})).sizes(), (torch::IntArrayRef{1, 40, 6625}));

  YAML::Node a = YAML::Clone(arch);
  a["Backbone"]["pretrained"] = true;
  std::string msg = test::message_of<UsageError>([&] { rec_arch_from_yaml(a, 6625); });
  EXPECT_NE(msg.find("Architecture.Backbone.pretrained"), std::string::npos) << msg;
  a = YAML::Clone(arch);
  a["Backbone"]["det"] = true;
  msg = test::message_of<UsageError>([&] { rec_arch_from_yaml(a, 6625); });
  EXPECT_NE(msg.find("Architecture.Backbone.det"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ocrforge
