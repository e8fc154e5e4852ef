// SVTRNet (tasks/rec/svtrnet.h) as PaddleOCR builds it: the PP-OCRv4
// distillation teacher's backbone has the parameter count written out from
// PaddleOCR's layer definitions and PaddleOCR's tensor names and shapes; a
// 48 x 320 line becomes the 256 x 3 x 80 token map (last_stage: false) or
// 192 x 1 x 40 (last_stage: true) in training and eval; another input size,
// and every head input PaddleOCR cannot run, is a UsageError naming the key.
#include "ocrforge/train/tasks/rec/svtrnet.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "test_support.h"

namespace ocrforge {
namespace {

int64_t n_params(const torch::nn::Module& m) {
  int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

// PaddleOCR's layers, parameter by parameter.
// ConvBNLayer of PatchEmbed (bias_attr=None: a conv bias) and SubSample's
// Conv (conv with bias + LayerNorm): 3x3 weights, bias, two norm vectors.
int64_t conv3_bias_norm(int64_t in, int64_t out) { return in * out * 9 + out + 2 * out; }
// Block: norm1, norm2, Mlp (fc1 d -> 4d, fc2 4d -> d, with biases).
int64_t block_common(int64_t d) { return 2 * 2 * d + (d * 4 * d + 4 * d) + (4 * d * d + d); }
// Attention (Global / Local): qkv with bias (qkv_bias True), proj.
int64_t attention(int64_t d) { return d * 3 * d + 3 * d + d * d + d; }
// ConvMixer: a k x k conv with num_heads groups and a bias.
int64_t conv_mixer(int64_t d, int64_t heads, int64_t k) { return d * (d / heads) * k * k + d; }

// PP-OCRv4_mobile_rec_distillation.yml's Teacher.Backbone: img_size 48 x 320
// (960 tokens of 64), depth 3 / 6 / 3, 6 Conv mixers then 6 Global, local_mixer 5 x 5.
int64_t teacher_backbone_params() {
  return conv3_bias_norm(3, 32) + conv3_bias_norm(32, 64) + 960 * 64 +
         3 * (block_common(64) + conv_mixer(64, 2, 5)) + conv3_bias_norm(64, 128) +
         3 * (block_common(128) + conv_mixer(128, 4, 5)) + 3 * (block_common(128) + attention(128)) +
         conv3_bias_norm(128, 256) + 3 * (block_common(256) + attention(256));
}

YAML::Node config_node(const std::string& file) { return YAML::LoadFile(test::source_dir() + "/configs/rec/" + file); }

YAML::Node teacher_architecture() {
  return YAML::Clone(config_node("PP-OCRv4/PP-OCRv4_mobile_rec_distillation.yml")["Architecture"]["Models"]["Teacher"]);
}

BackboneSpec backbone_of(const YAML::Node& backbone) {
  BackboneSpec b;
  b.name = "SVTRNet";
  b.svtr = read_svtrnet_keys(backbone, "Architecture.Backbone");
  return b;
}

// A small SVTRNet for the quick cases: 48 x 64 input, 12 x 16 tokens.
YAML::Node small_backbone() {
  return YAML::Load(
      "{name: SVTRNet, img_size: [48, 64], embed_dim: [16, 32, 32], depth: [1, 1, 1], num_heads: [2, 2, 4], "
      "mixer: [Conv, Local, Global], local_mixer: [[3, 3], [3, 5], [3, 3]], out_char_num: 10, out_channels: 24, "
      "last_stage: true, prenorm: true}");
}

std::string message(const YAML::Node& arch, int classes = 11) {
  return test::message_of<UsageError>([&] { RecModel m(rec_arch_from_yaml(arch, classes)); });
}

TEST(SvtrNet, TeacherBackboneParameterCountIsPaddleOcrs) {
  SvtrNetImpl net(backbone_of(teacher_architecture()["Backbone"]));
  EXPECT_EQ(n_params(net), teacher_backbone_params());
  EXPECT_EQ(teacher_backbone_params(), 4372992);
  EXPECT_EQ(net.out_channels(), 256);  // last_stage: false ends with embed_dim[2]
  // last_stage: true adds last_conv (256 -> 192, 1x1, no bias) and nothing else.
  YAML::Node b = teacher_architecture()["Backbone"];
  b["last_stage"] = true;
  SvtrNetImpl pooled(backbone_of(b));
  EXPECT_EQ(n_params(pooled), teacher_backbone_params() + 256 * 192);
  EXPECT_EQ(pooled.out_channels(), 192);
  // prenorm: false adds the final LayerNorm.
  b["prenorm"] = false;
  EXPECT_EQ(n_params(SvtrNetImpl(backbone_of(b))), teacher_backbone_params() + 256 * 192 + 2 * 256);
}

TEST(SvtrNet, TensorNamesAndShapesArePaddleOcrs) {
  SvtrNetImpl net(backbone_of(teacher_architecture()["Backbone"]));
  const auto params = net.named_parameters();
  const std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {
      {"patch_embed.proj.0.conv.weight", {32, 3, 3, 3}},
      {"patch_embed.proj.0.conv.bias", {32}},
      {"patch_embed.proj.1.norm.weight", {64}},
      {"pos_embed", {1, 960, 64}},
      {"blocks1.0.norm1.weight", {64}},
      {"blocks1.2.mixer.local_mixer.weight", {64, 32, 5, 5}},  // 2 groups
      {"blocks2.2.mixer.local_mixer.bias", {128}},
      {"blocks2.3.mixer.qkv.weight", {384, 128}},  // LibTorch [out, in]; Paddle stores [in, out]
      {"blocks2.5.mixer.proj.bias", {128}},
      {"blocks3.2.mlp.fc1.weight", {1024, 256}},
      {"blocks3.2.norm2.bias", {256}},
      {"sub_sample1.conv.weight", {128, 64, 3, 3}},
      {"sub_sample2.conv.bias", {256}},
      {"sub_sample2.norm.weight", {256}},
  };
  for (const auto& [name, shape] : expected) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes(), torch::IntArrayRef(shape)) << name;
  }
  EXPECT_TRUE(net.named_buffers().contains("patch_embed.proj.1.norm.running_var"));
  for (const char* absent : {"blocks2.2.mixer.qkv.weight", "last_conv.weight", "norm.weight", "blocks1.3.norm1.weight"})
    EXPECT_FALSE(params.contains(absent)) << absent;
  // PaddleOCR's init: LayerNorm 1 / 0, Linear biases 0, pos_embed trunc_normal(0.02) within 2 std.
  EXPECT_TRUE(params["blocks3.0.norm1.weight"].eq(1).all().item<bool>());
  EXPECT_TRUE(params["blocks3.0.mixer.qkv.bias"].eq(0).all().item<bool>());
  EXPECT_LE(params["pos_embed"].abs().max().item<double>(), 0.04 + 1e-6);
  EXPECT_NEAR(params["pos_embed"].std().item<double>(), 0.0175, 0.002);  // 0.02 truncated at 2 std
}

TEST(SvtrNet, ALineBecomesTheTokenMapOrThePooledLineInBothModes) {
  torch::manual_seed(0);
  torch::NoGradGuard g;
  const torch::Tensor x = torch::rand({1, 3, 48, 320}) * 2 - 1;
  SvtrNetImpl tokens(backbone_of(teacher_architecture()["Backbone"]));
  YAML::Node b = teacher_architecture()["Backbone"];
  b["last_stage"] = true;
  SvtrNetImpl line(backbone_of(b));
  for (bool training : {true, false}) {
    tokens.train(training);
    line.train(training);
    EXPECT_EQ(tokens.forward(x).sizes(), (torch::IntArrayRef{1, 256, 3, 80})) << training;
    EXPECT_EQ(line.forward(x).sizes(), (torch::IntArrayRef{1, 192, 1, 40})) << training;
  }
  // Eval is deterministic; last_stage's dropout scales by 1 - last_drop there (downscale_in_infer).
  line.eval();
  EXPECT_TRUE(line.forward(x).equal(line.forward(x)));
}

TEST(SvtrNet, AnotherInputSizeIsRefusedInTrainingAndEval) {
  SvtrNetImpl net(backbone_of(small_backbone()));
  torch::NoGradGuard g;
  for (bool training : {true, false}) {
    net.train(training);
    EXPECT_EQ(net.forward(torch::rand({2, 3, 48, 64})).sizes(), (torch::IntArrayRef{2, 24, 1, 10}));
    for (const auto& shape : {std::vector<int64_t>{1, 3, 48, 65}, {1, 3, 48, 63}, {1, 3, 32, 64}, {1, 3, 48, 128}}) {
      const std::string msg = test::message_of<UsageError>([&] { net.forward(torch::rand(shape)); });
      EXPECT_NE(msg.find("Backbone.img_size"), std::string::npos) << msg;
      EXPECT_NE(msg.find("48 x 64"), std::string::npos) << msg;
    }
  }
}

// The variants the configs do not use but PaddleOCR's constructor offers:
// Pool merging, no merging, prenorm: false, sub_num 3, Swish MLPs.
TEST(SvtrNet, OtherVariantsGiveTheirShapes) {
  torch::NoGradGuard g;
  const torch::Tensor x = torch::rand({2, 3, 48, 64});
  YAML::Node b = small_backbone();
  b["patch_merging"] = "Pool";
  b["prenorm"] = false;
  b["act"] = "nn.Swish";
  b["last_stage"] = false;
  b["out_channels"] = 32;
  SvtrNetImpl pool(backbone_of(b));
  EXPECT_TRUE(pool.named_parameters().contains("sub_sample1.proj.weight"));
  EXPECT_TRUE(pool.named_parameters().contains("norm.weight"));
  EXPECT_EQ(pool.forward(x).sizes(), (torch::IntArrayRef{2, 32, 3, 16}));
  b = small_backbone();
  b["patch_merging"] = YAML::Node();  // null: no merging, one width throughout
  b["embed_dim"] = YAML::Load("[16, 16, 16]");
  b["num_heads"] = YAML::Load("[2, 2, 2]");
  b["last_stage"] = false;
  SvtrNetImpl flat(backbone_of(b));
  EXPECT_FALSE(flat.named_parameters().contains("sub_sample1.conv.weight"));
  EXPECT_EQ(flat.forward(x).sizes(), (torch::IntArrayRef{2, 16, 12, 16}));
  b = small_backbone();
  b["sub_num"] = 3;
  b["img_size"] = YAML::Load("[96, 64]");
  SvtrNetImpl deep(backbone_of(b));
  EXPECT_TRUE(deep.named_parameters().contains("patch_embed.proj.2.conv.weight"));
  EXPECT_EQ(deep.forward(torch::rand({1, 3, 96, 64})).sizes(), (torch::IntArrayRef{1, 24, 1, 10}));
}

TEST(SvtrNet, LocalMaskKeepsTheWindowAroundEachToken) {
  const torch::Tensor m = svtr_local_mask(2, 3, 1, 3);  // one row, three columns around the query
  ASSERT_EQ(m.sizes(), (torch::IntArrayRef{6, 6}));
  const auto open = [&](int q, int k) { return m[q][k].item<float>() == 0.0f; };
  EXPECT_TRUE(open(0, 0) && open(0, 1) && !open(0, 2) && !open(0, 3));  // (0,0) sees (0,0), (0,1)
  EXPECT_TRUE(open(4, 3) && open(4, 4) && open(4, 5) && !open(4, 1));    // (1,1) sees its row only
  // An even window reaches one further back than forward, as PaddleOCR's crop.
  const torch::Tensor e = svtr_local_mask(1, 5, 1, 4);
  EXPECT_TRUE(e[2][0].item<float>() == 0 && e[2][3].item<float>() == 0 && std::isinf(e[2][4].item<float>()));
}

TEST(SvtrNet, AdaptivePoolMatrixIsLibTorchsAdaptivePool) {
  for (const auto& [w, out] : {std::pair<int64_t, int64_t>{80, 40}, {16, 10}, {7, 3}, {5, 8}}) {
    const torch::Tensor x = torch::rand({2, 4, 3, w});
    const torch::Tensor ours = torch::matmul(x.mean(2, true), adaptive_pool_matrix(w, out));
    EXPECT_TRUE(torch::allclose(ours, torch::adaptive_avg_pool2d(x, {1, out}), 1e-5, 1e-6)) << w << " -> " << out;
  }
}

// The Teacher of PaddleOCR's PP-OCRv4 distillation as shipped fails in
// PaddleOCR (last_stage: false hands the svtr neck tokens); here it is
// refused before training, naming the key and both ways out. With
// last_stage: true it builds: 40 steps, as the Student gives.
TEST(SvtrNet, TheDistillationTeacherAsShippedIsRefusedAndBuildsWithLastStage) {
  YAML::Node arch = teacher_architecture();
  std::string msg = message(arch);
  EXPECT_NE(msg.find("Architecture.Backbone.last_stage"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 x 80 tokens"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PaddleOCR fails on this config too"), std::string::npos) << msg;
  EXPECT_NE(msg.find("use_pool"), std::string::npos) << msg;
  arch["Backbone"]["last_stage"] = true;
  RecModel m(rec_arch_from_yaml(arch, 11));
  m->eval();
  torch::NoGradGuard g;
  EXPECT_EQ(m->predict(torch::rand({1, 3, 48, 320})).sizes(), (torch::IntArrayRef{1, 40, 11}));
  EXPECT_EQ(count_parameters(*m->backbone()), teacher_backbone_params() + 256 * 192);
}

// ch_PP-OCRv4_rec_svtr_large.yml: use_pool pools the 3 x 80 map to 1 x 40
// before the CTC and NRTR branches; use_pos adds NRTR's position embedding.
// Its sizes, shrunk (the real one holds 37.6 M backbone parameters).
TEST(SvtrNet, SvtrLargeUsePoolFeedsBothBranchesFortySteps) {
  YAML::Node arch = YAML::Clone(config_node("PP-OCRv4/ch_PP-OCRv4_rec_svtr_large.yml")["Architecture"]);
  const RecArchSpec full = rec_arch_from_yaml(arch, 11);
  EXPECT_TRUE(full.head_pool);
  ASSERT_TRUE(full.nrtr.has_value());
  EXPECT_TRUE(full.nrtr->use_pos);
  EXPECT_EQ(full.backbone.svtr.embed_dim, (std::vector<int>{192, 256, 512}));
  EXPECT_EQ(full.backbone.svtr.mixer.size(), 21u);
  YAML::Node b = arch["Backbone"];
  b["embed_dim"] = YAML::Load("[16, 32, 32]");
  b["num_heads"] = YAML::Load("[2, 2, 2]");
  b["depth"] = YAML::Load("[1, 1, 1]");
  b["mixer"] = YAML::Load("[Conv, Conv, Global]");
  b["out_channels"] = 32;
  arch["Head"]["head_list"][0]["CTCHead"]["Neck"] = YAML::Load("{name: svtr, dims: 16, depth: 1, hidden_dims: 16, "
                                                              "num_heads: 2, kernel_size: [1, 3], use_guide: True}");
  arch["Head"]["head_list"][1]["NRTRHead"] = YAML::Load("{nrtr_dim: 32, num_decoder_layers: 1, max_text_length: 8}");
  RecModel m(rec_arch_from_yaml(arch, 11));
  EXPECT_TRUE(m->named_parameters().contains("before_gtc.2.dec_pos_embed"));
  const torch::Tensor x = torch::rand({2, 3, 48, 320});
  NrtrTargets t{torch::tensor({{2, 5, 6, 3, 0, 0, 0, 0}, {2, 7, 3, 0, 0, 0, 0, 0}}, torch::kLong),
                torch::tensor({2, 1}, torch::kLong)};
  m->train();
  const RecForward f = m->forward_all(x, nullptr, &t);
  EXPECT_EQ(f.backbone_out.sizes(), (torch::IntArrayRef{2, 32, 3, 80}));  // before the pool
  EXPECT_EQ(f.logits.sizes(), (torch::IntArrayRef{2, 40, 11}));
  EXPECT_EQ(f.nrtr_logits.sizes(), (torch::IntArrayRef{2, 3, 15}));  // max length + 1 steps, 11 + 3 + 1 classes
  m->eval();
  torch::NoGradGuard g;
  EXPECT_EQ(m->predict(x).sizes(), (torch::IntArrayRef{2, 40, 11}));
}

TEST(SvtrNet, HeadInputsPaddleOcrCannotRunAreRefusedNamingTheKey) {
  const auto with = [](const std::string& backbone_key, const YAML::Node& value, bool pool) {
    YAML::Node arch = teacher_architecture();
    arch["Backbone"] = small_backbone();
    if (!backbone_key.empty()) arch["Backbone"][backbone_key] = value;
    if (pool) arch["Head"]["use_pool"] = true;
    return message(arch);
  };
  // use_pool on an already pooled line, on another backbone, or on a grid that is not 3 rows high.
  EXPECT_NE(with("", {}, true).find("Architecture.Head.use_pool"), std::string::npos);
  YAML::Node lcnet = teacher_architecture();
  lcnet["Backbone"] = YAML::Load("{name: PPLCNetV3, scale: 0.95}");
  lcnet["Head"]["use_pool"] = true;
  std::string msg = message(lcnet);
  EXPECT_NE(msg.find("Architecture.Head.use_pool"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PPLCNetV3"), std::string::npos) << msg;
  YAML::Node arch = teacher_architecture();
  arch["Head"]["use_pool"] = true;  // out_channels 192, but the tokens are 256 wide
  msg = message(arch);
  EXPECT_NE(msg.find("Architecture.Backbone.out_channels"), std::string::npos) << msg;
  EXPECT_NE(msg.find("set out_channels: 256"), std::string::npos) << msg;
  arch["Backbone"]["out_channels"] = 256;
  arch["Backbone"]["img_size"] = YAML::Load("[32, 320]");
  msg = message(arch);
  EXPECT_NE(msg.find("Architecture.Head.use_pool"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 x 80"), std::string::npos) << msg;
}

TEST(SvtrNet, KeysItDoesNotBuildAreRefusedNamingTheKey) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"use_lenhead", "true", "Architecture.Backbone.use_lenhead"},
      {"mixer", "[Conv, Local, Attention]", "unknown mixer 'Attention'"},
      {"mixer", "[Conv, Global]", "lists 2 mixers for 3 blocks"},
      {"local_mixer", "[[3, 3], [3, 3]]", "Architecture.Backbone.local_mixer"},
      {"img_size", "[40, 64]", "Architecture.Backbone.img_size"},
      {"num_heads", "[3, 2, 4]", "embed_dim[0] 16 is not divisible by num_heads[0] 3"},
      {"act", "nn.ReLU", "Architecture.Backbone.act: 'nn.ReLU' is not supported yet"},
      {"block_unit", "ConvBlock", "Architecture.Backbone.block_unit"},
      {"norm_layer", "nn.BatchNorm", "Architecture.Backbone.norm_layer"},
      {"patch_merging", "Merge", "Architecture.Backbone.patch_merging: 'Merge'"},
      {"sub_num", "4", "Architecture.Backbone.sub_num"},
      {"drop_path_rate", "1.5", "Architecture.Backbone.drop_path_rate"},
  };
  for (const auto& [key, value, expect] : cases) {
    YAML::Node arch = teacher_architecture();
    arch["Backbone"] = small_backbone();
    arch["Backbone"][key] = YAML::Load(value);
    const std::string msg = message(arch);
    EXPECT_NE(msg.find(expect), std::string::npos) << key << ": " << msg;
  }
}

}  // namespace
}  // namespace ocrforge
