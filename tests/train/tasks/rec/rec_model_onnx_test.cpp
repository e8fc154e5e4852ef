// Parity of the native recognition exporter: the LibTorch eval forward
// (softmax probabilities) of every recognition architecture the trainer
// builds equals ONNX Runtime's run of the exported graph, max |diff| <= 1e-4,
// on a real picture and random inputs of several widths and batch sizes.
// Batch norm statistics and affine parameters are randomised first, so the
// folding into the convolutions is exercised, not just identity statistics.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include "ocrforge/train/tasks/rec/rec_model_onnx.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/onnx/onnx_writer.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

RecModel build(const YAML::Node& architecture, int classes) {
  torch::manual_seed(3);
  RecModel m(rec_arch_from_yaml(architecture, classes));
  torch::NoGradGuard no_grad;
  for (auto& mod : m->modules(/*include_self=*/false)) {
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
      bn->running_mean.uniform_(-0.2, 0.2);
      bn->running_var.uniform_(0.5, 1.5);
      bn->weight.uniform_(0.5, 1.5);
      bn->bias.uniform_(-0.2, 0.2);
    }
  }
  m->eval();
  return m;
}

YAML::Node config_architecture(const std::string& file) {
  return YAML::LoadFile(test::source_dir() + "/configs/rec/" + file)["Architecture"];
}

// Exports `m`, then compares LibTorch and ORT on each input; returns the worst difference.
double worst_difference(RecModel m, int64_t height, const std::vector<torch::Tensor>& inputs,
                        const std::string& name) {
  const std::string path = test::fresh_dir(name) + "/inference.onnx";
  write_onnx_graph(rec_model_to_onnx(*m, height), path);
  check_onnx_model(path);
  double worst = 0;
  for (const auto& x : inputs) {
    torch::NoGradGuard no_grad;
    const torch::Tensor ours = m->predict(x);
    const torch::Tensor ort = test::ort_output(path, "rec", x);
    EXPECT_EQ(ours.sizes(), ort.sizes()) << name;
    if (ours.sizes() != ort.sizes()) return 1e9;
    worst = std::max(worst, (ours - ort).abs().max().item<double>());
  }
  return worst;
}

std::vector<torch::Tensor> inputs(int64_t h, const std::vector<std::pair<int64_t, int64_t>>& batch_width) {
  std::vector<torch::Tensor> v{test::sample_picture("ch_word_3.jpg", static_cast<int>(h), 320, false)};
  torch::manual_seed(5);
  for (const auto& [n, w] : batch_width) v.push_back(torch::rand({n, 3, h, w}) * 2 - 1);
  return v;
}

TEST(RecModelOnnx, SvtrLcNetMatchesOrt) {  // PP-OCRv3 mobile: MobileNetV1Enhance + SVTR neck
  const RecModel m = build(config_architecture("en_PP-OCRv3_mobile_rec.yml"), 97);
  const double d = worst_difference(m, 48, inputs(48, {{2, 160}, {3, 480}}), "onnx_svtr");
  EXPECT_LE(d, 1e-4);
  std::printf("SVTR_LCNet: max |LibTorch - ORT| = %.3g\n", d);
}

TEST(RecModelOnnx, CrnnMatchesOrt) {  // MobileNetV3 small + 2-layer BiLSTM
  const RecModel m = build(config_architecture("en_CRNN_mobilenetv3_rec.yml"), 37);
  const double d = worst_difference(m, 32, inputs(32, {{2, 100}, {3, 256}}), "onnx_crnn");
  EXPECT_LE(d, 1e-4);
  std::printf("CRNN: max |LibTorch - ORT| = %.3g\n", d);
}

TEST(RecModelOnnx, OtherNecksAndATwoLayerHeadMatchOrt) {
  for (const char* neck : {"reshape", "fc"}) {
    YAML::Node a = config_architecture("en_CRNN_mobilenetv3_rec.yml");
    a["Neck"]["encoder_type"] = neck;
    a["Backbone"]["model_name"] = "large";
    a["Head"]["mid_channels"] = 24;
    const RecModel m = build(a, 11);
    EXPECT_LE(worst_difference(m, 32, inputs(32, {{2, 128}}), std::string("onnx_") + neck), 1e-4) << neck;
  }
}

// How far the probabilities are from uniform: a parity figure means
// something only when the network's output is not flat.
double spread(RecModel m, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  const torch::Tensor p = m->predict(x);
  return (p.max() - p.min()).item<double>();
}

// PaddleOCR's trunc_normal(0.02) Linears leave a fresh SVTR's output almost
// flat; a head `factor` times larger makes the probabilities differ, so the
// parity figure is about a peaked output, as a trained model's.
RecModel sharpened(RecModel m, double factor = 30.0) {
  torch::NoGradGuard no_grad;
  for (auto& p : m->head()->parameters()) p.mul_(factor);
  return m;
}

// The mean over time steps of the most likely class's probability: near 1
// the softmax saturates (differences vanish in the rounding), near 1 /
// classes it is flat; parity means most in between, as a trained model's.
double confidence(RecModel m, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  return std::get<0>(m->predict(x).max(-1)).mean().item<double>();
}

// PP-OCRv4 server: PPHGNet_small (concatenating HG blocks, ESE attention,
// the 3 x 2 eval pool) + the MultiHead's svtr neck with a [1, 3] kernel.
TEST(RecModelOnnx, PPHGNetServerRecMatchesOrt) {
  const RecModel m = sharpened(build(config_architecture("PP-OCRv4/PP-OCRv4_server_rec.yml"), 97), 10.0);
  const double d = worst_difference(m, 48, inputs(48, {{2, 160}}), "onnx_pphgnet");
  const double conf = confidence(m, inputs(48, {}).front());
  std::printf("PP-OCRv4 server rec (PPHGNet_small): max |LibTorch - ORT| = %.3g, mean top probability %.3g\n", d,
              conf);
  EXPECT_LE(d, 1e-4);
  EXPECT_GT(conf, 0.2);
  EXPECT_LT(conf, 0.99);
}

// PP-OCRv5 server: PPHGNetV2_B4 text_rec (the two-branch stem with Paddle's
// "SAME" pads, light blocks) + the same MultiHead svtr neck.
TEST(RecModelOnnx, PPHGNetV2ServerRecMatchesOrt) {
  // Its fresh features are about a thousand times larger than PPHGNet_small's
  // (random BatchNorm statistics compound over the light blocks): the head is
  // scaled down instead, or the softmax saturates and every difference is 0.
  const RecModel m = sharpened(build(config_architecture("PP-OCRv5/PP-OCRv5_server_rec.yml"), 97), 0.002);
  const double d = worst_difference(m, 48, inputs(48, {{2, 160}}), "onnx_pphgnet_v2");
  const double conf = confidence(m, inputs(48, {}).front());
  std::printf("PP-OCRv5 server rec (PPHGNetV2_B4): max |LibTorch - ORT| = %.3g, mean top probability %.3g\n", d,
              conf);
  EXPECT_LE(d, 1e-4);
  EXPECT_GT(conf, 0.2);
  EXPECT_LT(conf, 0.99);
}

// SVTRNet takes one input size: the graph's input is static (48 x 320), the
// inputs are the picture and random lines of that size.
std::vector<torch::Tensor> svtr_inputs() {
  std::vector<torch::Tensor> v = inputs(48, {{2, 320}});
  EXPECT_EQ(v.front().sizes(), (torch::IntArrayRef{1, 3, 48, 320}));
  return v;
}

// The PP-OCRv4 distillation teacher at full size with last_stage: true
// (PaddleOCR's config says false, which no neck can read: svtrnet_test.cpp):
// PatchEmbed with GELU, Conv then Global mixers, post-norm blocks, Conv
// merging, the adaptive pool, last_conv, hardswish and the downscaling dropout.
TEST(RecModelOnnx, SvtrNetTeacherMatchesOrt) {
  YAML::Node a = YAML::Clone(config_architecture("PP-OCRv4/PP-OCRv4_mobile_rec_distillation.yml")["Models"]["Teacher"]);
  a["Backbone"]["last_stage"] = true;
  const RecModel m = sharpened(build(a, 97));
  const double d = worst_difference(m, 48, svtr_inputs(), "onnx_svtrnet");
  EXPECT_LE(d, 1e-4);
  const double peak = spread(m, svtr_inputs().back());
  EXPECT_GT(peak, 0.5);
  std::printf("SVTRNet (PP-OCRv4 teacher): max |LibTorch - ORT| = %.3g, probabilities spread %.3g\n", d, peak);
  const OnnxGraph g = rec_model_to_onnx(*m, 48);
  EXPECT_EQ(g.io_shapes.at("x"), (std::vector<int64_t>{-1, 3, 48, 320}));
  for (const char* name : {"backbone.pos_embed", "backbone.blocks1.0.mixer.local_mixer.weight",
                           "backbone.blocks3.2.mixer.qkv.weight", "backbone.sub_sample1.conv.weight",
                           "backbone.last_conv.weight"})
    EXPECT_TRUE(g.constants.count(name)) << name;
}

// ch_PP-OCRv4_rec_svtr_large.yml's shape, shrunk: last_stage: false and
// MultiHead's use_pool (the 3 x 2 pool of the 3 x 80 token map).
TEST(RecModelOnnx, SvtrNetUsePoolMatchesOrt) {
  YAML::Node a = config_architecture("PP-OCRv4/ch_PP-OCRv4_rec_svtr_large.yml");
  a["Backbone"] = YAML::Load(
      "{name: SVTRNet, img_size: [48, 320], out_char_num: 40, out_channels: 64, patch_merging: Conv, "
      "embed_dim: [32, 48, 64], depth: [2, 1, 1], num_heads: [2, 2, 4], mixer: [Conv, Conv, Global, Global], "
      "local_mixer: [[5, 5], [5, 5], [5, 5]], last_stage: False, prenorm: True}");
  const RecModel m = sharpened(build(a, 97));
  const double d = worst_difference(m, 48, svtr_inputs(), "onnx_svtrnet_pool");
  EXPECT_LE(d, 1e-4);
  const double peak = spread(m, svtr_inputs().back());
  EXPECT_GT(peak, 0.5);
  std::printf("SVTRNet + use_pool: max |LibTorch - ORT| = %.3g, probabilities spread %.3g\n", d, peak);
}

// The variants no shipped config uses: Local attention (its mask), Pool
// merging (exclusive average + max), prenorm: false (pre-LN blocks and the
// final norm), three PatchEmbed convolutions, swish MLPs, a pool to a width
// the map does not divide into.
TEST(RecModelOnnx, SvtrNetOtherVariantsMatchOrt) {
  YAML::Node a = config_architecture("en_PP-OCRv3_mobile_rec.yml");
  a["Backbone"] = YAML::Load(
      "{name: SVTRNet, img_size: [64, 320], sub_num: 3, embed_dim: [32, 48, 64], depth: [1, 1, 1], "
      "num_heads: [2, 2, 4], mixer: [Local, Conv, Local], local_mixer: [[3, 5], [3, 3], [1, 5]], "
      "patch_merging: Pool, prenorm: False, act: nn.Swish, out_channels: 48, out_char_num: 25}");
  a["Neck"] = YAML::Load("{name: SequenceEncoder, encoder_type: reshape}");
  const RecModel m = sharpened(build(a, 97));
  std::vector<torch::Tensor> in{test::sample_picture("ch_word_3.jpg", 64, 320, false)};
  in.push_back(torch::rand({2, 3, 64, 320}) * 2 - 1);
  const double d = worst_difference(m, 64, in, "onnx_svtrnet_variants");
  EXPECT_LE(d, 1e-4);
  const double peak = spread(m, in.back());
  EXPECT_GT(peak, 0.5);
  std::printf("SVTRNet variants: max |LibTorch - ORT| = %.3g, probabilities spread %.3g\n", d, peak);
}

// BN running statistics taken from `batch` (momentum 1), as a trained
// network's come from its data: build()'s random statistics let the 16
// residual blocks of a ResNet grow the activations to thousands, where the
// softmax saturates and a parity figure says little. With these the
// probabilities are peaked without sharpened() (whose 30x head would hold
// float32 rounding of the logits, ~4e-5 from float64 here, to 1e-4 x 30).
RecModel with_batch_statistics(RecModel m, const torch::Tensor& batch) {
  torch::NoGradGuard no_grad;
  for (auto& mod : m->modules(/*include_self=*/false))
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) bn->options.momentum(1.0);
  m->train();
  m->forward(batch);
  for (auto& mod : m->modules(/*include_self=*/false))
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) bn->running_var.clamp_min_(0.05);
  m->eval();
  return m;
}

// PaddleOCR's recognition ResNet (rec_resnet_vd.py): Rosetta on ResNet 34 as
// the rec_r34_vd_none_none_ctc TIPC config builds it (reshape neck, 37
// classes), and ResNet 18 at height 36, where the ceil-mode (2, 1) shortcut
// pools meet odd heights (9 -> 5 -> 3).
TEST(RecModelOnnx, ResNetRecMatchesOrt) {
  const YAML::Node tipc =
      YAML::LoadFile(test::source_dir() + "/test_tipc/configs/rec_r34_vd_none_none_ctc_v2.0/rec_icdar15_train.yml");
  torch::manual_seed(7);
  const RecModel r34 = with_batch_statistics(build(tipc["Architecture"], 37), torch::rand({4, 3, 32, 100}) * 2 - 1);
  const std::vector<torch::Tensor> in32 = inputs(32, {{2, 100}});
  const double d34 = worst_difference(r34, 32, in32, "onnx_rec_r34");
  EXPECT_LE(d34, 1e-4);
  const double peak = spread(r34, in32.back());
  EXPECT_GT(peak, 0.3);  // not a flat output
  std::printf("ResNet34 (Rosetta): max |LibTorch - ORT| = %.3g, probabilities spread %.3g\n", d34, peak);
  std::filesystem::remove_all(test::fresh_dir("onnx_rec_r34"));  // the ~85 MB export, emptied and removed
  YAML::Node a = YAML::Clone(tipc["Architecture"]);
  a["Backbone"]["layers"] = 18;
  RecModel r18 = with_batch_statistics(build(a, 37), torch::rand({4, 3, 36, 100}) * 2 - 1);
  const std::vector<torch::Tensor> in36 = inputs(36, {{2, 99}});
  EXPECT_EQ(r18->predict(in36.back()).size(1), 25);  // 99 wide: 25 steps
  const double d18 = worst_difference(r18, 36, in36, "onnx_rec_r18_h36");
  EXPECT_LE(d18, 1e-4);
  EXPECT_GT(spread(r18, in36.back()), 0.3);
  std::printf("ResNet18 at height 36: max |LibTorch - ORT| = %.3g, probabilities spread %.3g\n", d18,
              spread(r18, in36.back()));
}

TEST(RecModelOnnx, InitializersAreNamedAfterTheModules) {
  const RecModel m = build(config_architecture("en_PP-OCRv3_mobile_rec.yml"), 97);
  const OnnxGraph g = rec_model_to_onnx(*m, 48);
  for (const char* name : {"backbone.conv1._conv.weight", "neck.encoder.svtr_block.0.mixer.qkv.weight",
                           "neck.encoder.svtr_block.1.norm2.bias", "head.fc.weight"})
    EXPECT_TRUE(g.constants.count(name)) << name;
  EXPECT_EQ(g.opset, 17);
  EXPECT_EQ(g.io_shapes.at("x"), (std::vector<int64_t>{-1, 3, 48, -1}));
}

}  // namespace
}  // namespace ocrforge
