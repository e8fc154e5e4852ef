// PPHGNetV2_B4 (nn/pphgnet_v2.h) as PaddleOCR builds it: the text_rec
// variant of PP-OCRv5_server_rec.yml turns a 48 x 320 line into 2048 x 3 x 80
// (1 x 40 after PaddleOCR's pool, in both modes), odd sizes go through (the
// stem's "SAME" pads keep its two branches the same size), the det variant
// gives four maps at strides 4..32, tensor names are PaddleOCR's, the
// parameter count equals the one written out from PaddleOCR's layer
// definitions, and the exported graph (export/pphgnet_v2_emitter.h) run by
// ONNX Runtime equals the LibTorch eval forward.
// ctest-labels: model train (runs the exported backbone in ONNX Runtime)
#include "ocrforge/train/nn/pphgnet_v2.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/export/pphgnet_v2_emitter.h"
#include "test_support.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

struct Holder : torch::nn::Module {
  explicit Holder(const PPHGNetV2Spec& s) : layers(*this, s) {}
  PPHGNetV2Layers layers;
};

PPHGNetV2Spec spec(bool det, bool text_rec, bool use_lab = false, int in_channels = 3) {
  PPHGNetV2Spec s;
  s.det = det;
  s.text_rec = text_rec;
  s.use_lab = use_lab;
  s.in_channels = in_channels;
  return s;
}

PPHGNetV2Spec rec_spec() { return spec(false, true); }

int64_t n_params(const torch::nn::Module& m) {
  int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

// --- the parameter count from PaddleOCR's definitions (rec_pphgnetv2.py) ----

// ConvBNAct: a conv without bias (in/groups * out * k * k), BN weight and
// bias (2 * out); with use_lab a LearnableAffineBlock (scale, bias: 2) only
// when the layer has its activation.
int64_t conv_bn_act(int64_t in, int64_t out, int64_t k, int64_t groups, bool act, bool lab) {
  return in / groups * out * k * k + 2 * out + (act && lab ? 2 : 0);
}
// LightConvBNAct: conv1 (1x1, no activation), conv2 (depthwise k x k, activation).
int64_t light_conv_bn_act(int64_t in, int64_t out, int64_t k, bool lab) {
  return conv_bn_act(in, out, 1, 1, false, lab) + conv_bn_act(out, out, k, out, true, lab);
}
// HGV2_Block: layer_num layers (the first from `in`, the others from `mid`),
// then aggregation_squeeze_conv (in + layer_num * mid -> out / 2) and
// aggregation_excitation_conv (out / 2 -> out), both 1x1 with activation.
int64_t hgv2_block(int64_t in, int64_t mid, int64_t out, int64_t k, int layer_num, bool light, bool lab) {
  int64_t n = 0;
  for (int i = 0; i < layer_num; ++i) {
    const int64_t c = i == 0 ? in : mid;
    n += light ? light_conv_bn_act(c, mid, k, lab) : conv_bn_act(c, mid, k, 1, true, lab);
  }
  return n + conv_bn_act(in + layer_num * mid, out / 2, 1, 1, true, lab) + conv_bn_act(out / 2, out, 1, 1, true, lab);
}
struct StageRow {
  int64_t in, mid, out;
  int blocks;
  bool downsample, light;
  int64_t k;
  int layer_num;
};
// HGV2_Stage: the depthwise 3x3 downsampling ConvBNAct without activation,
// the first block from `in`, the others from `out`.
int64_t hgv2_stage(const StageRow& r, bool lab) {
  return (r.downsample ? conv_bn_act(r.in, r.in, 3, r.in, false, lab) : 0) +
         hgv2_block(r.in, r.mid, r.out, r.k, r.layer_num, r.light, lab) +
         (r.blocks - 1) * hgv2_block(r.out, r.mid, r.out, r.k, r.layer_num, r.light, lab);
}
// PPHGNetV2_B4: stem_channels [3, 32, 48]; StemBlock stem1 (3x3, in -> 32),
// stem2a (2x2, 32 -> 16), stem2b (2x2, 16 -> 32), stem3 (3x3, 64 -> 32),
// stem4 (1x1, 32 -> 48), all with activation; the pool has no parameters.
// Stage rows: stage_config_rec / stage_config_det (stage 1 downsamples in rec only).
int64_t pphgnet_v2_b4_params(bool det, bool lab, int64_t in_channels = 3) {
  const int64_t stem = conv_bn_act(in_channels, 32, 3, 1, true, lab) + conv_bn_act(32, 16, 2, 1, true, lab) +
                       conv_bn_act(16, 32, 2, 1, true, lab) + conv_bn_act(64, 32, 3, 1, true, lab) +
                       conv_bn_act(32, 48, 1, 1, true, lab);
  const StageRow rows[4] = {{48, 48, 128, 1, !det, false, 3, 6},
                            {128, 96, 512, 1, true, false, 3, 6},
                            {512, 192, 1024, 3, true, true, 5, 6},
                            {1024, 384, 2048, 1, true, true, 5, 6}};
  int64_t n = stem;
  for (const auto& r : rows) n += hgv2_stage(r, lab);
  // PPHGNetV2's ImageNet tail, built though never run: last_conv (1x1,
  // 2048 -> class_expand 2048, no bias) and, outside det, fc (2048 -> 1000, with bias).
  n += 2048 * 2048;
  if (!det) n += 2048 * 1000 + 1000;
  return n;
}

// A 3x3 conv with PaddleOCR's padding (k-1)//2 = 1 and stride s: floor((n - 1) / s) + 1.
int64_t down(int64_t n, int64_t s) { return (n - 1) / s + 1; }
// text_rec: stem1 /2, then stage strides h (2, 1, 2, 2), w (1, 2, 1, 1).
std::vector<int64_t> rec_map_size(int64_t h, int64_t w) {
  return {down(down(down(down(h, 2), 2), 2), 2), down(down(w, 2), 2)};
}

// --- tests ------------------------------------------------------------------

TEST(PPHGNetV2, RecB4TurnsALineInto2048By3By80AndPaddleOcrsPoolInto1By40) {
  torch::manual_seed(0);
  Holder h{rec_spec()};
  EXPECT_EQ(h.layers.out_channels, (std::vector<int64_t>{2048}));
  torch::NoGradGuard g;
  const torch::Tensor x = torch::rand({1, 3, 48, 320});
  h.eval();
  const torch::Tensor y = h.layers.last(x);
  EXPECT_EQ(y.sizes(), (torch::IntArrayRef{1, 2048, 3, 80}));
  // PaddleOCR's text_rec pool in eval: avg_pool2d [3, 2] (stride = kernel).
  EXPECT_EQ(torch::avg_pool2d(y, {3, 2}, {3, 2}).sizes(), (torch::IntArrayRef{1, 2048, 1, 40}));
  // ... in training: adaptive_avg_pool2d to [1, 40].
  h.train();
  EXPECT_EQ(torch::adaptive_avg_pool2d(h.layers.last(x), {1, 40}).sizes(), (torch::IntArrayRef{1, 2048, 1, 40}));
}

TEST(PPHGNetV2, OddSizesGoThroughInBothModes) {
  torch::manual_seed(1);
  Holder h{rec_spec()};
  torch::NoGradGuard g;
  for (const auto& [hh, ww] : {std::pair<int64_t, int64_t>{32, 100}, {33, 101}, {64, 77}}) {
    const torch::Tensor x = torch::rand({1, 3, hh, ww});
    const std::vector<int64_t> hw = rec_map_size(hh, ww);
    for (bool training : {false, true}) {
      h.train(training);
      const torch::Tensor y = h.layers.last(x);
      EXPECT_EQ(y.sizes(), (torch::IntArrayRef{1, 2048, hw[0], hw[1]})) << hh << "x" << ww << " training " << training;
      if (training) {
        EXPECT_EQ(torch::adaptive_avg_pool2d(y, {1, 40}).sizes(), (torch::IntArrayRef{1, 2048, 1, 40}));
      }
    }
  }
  EXPECT_EQ(rec_map_size(32, 100), (std::vector<int64_t>{2, 25}));
  EXPECT_EQ(rec_map_size(33, 101), (std::vector<int64_t>{3, 26}));
}

TEST(PPHGNetV2, ParameterCountIsPaddleOcrs) {
  Holder rec{rec_spec()};
  const int64_t expected = pphgnet_v2_b4_params(false, false);
  std::printf("PPHGNetV2_B4 text_rec: %lld parameters\n", static_cast<long long>(expected));
  EXPECT_EQ(n_params(rec), expected);
  // text_rec changes a stride, not a shape.
  EXPECT_EQ(n_params(Holder{spec(false, false)}), expected);
  Holder det{spec(true, false)};
  EXPECT_EQ(n_params(det), pphgnet_v2_b4_params(true, false));
  // Stage 1's depthwise downsampling conv (48 * 3 * 3 weights + BN 2 * 48) and the fc.
  EXPECT_EQ(pphgnet_v2_b4_params(false, false) - pphgnet_v2_b4_params(true, false),
            48 * 9 + 2 * 48 + 2048 * 1000 + 1000);
  EXPECT_EQ(n_params(Holder{spec(false, true, /*use_lab=*/true)}), pphgnet_v2_b4_params(false, true));
  EXPECT_GT(pphgnet_v2_b4_params(false, true), expected);
  EXPECT_EQ(n_params(Holder{spec(false, true, false, /*in_channels=*/1)}), pphgnet_v2_b4_params(false, false, 1));
}

TEST(PPHGNetV2, TensorNamesAndShapesArePaddleOcrs) {
  Holder h{rec_spec()};
  const auto params = h.named_parameters();
  const std::map<std::string, std::vector<int64_t>> expected = {
      {"stem.stem1.conv.weight", {32, 3, 3, 3}},
      {"stem.stem1.bn.weight", {32}},
      {"stem.stem2a.conv.weight", {16, 32, 2, 2}},
      {"stem.stem2b.bn.bias", {32}},
      {"stem.stem3.conv.weight", {32, 64, 3, 3}},
      {"stem.stem4.conv.weight", {48, 32, 1, 1}},
      {"stages.0.downsample.conv.weight", {48, 1, 3, 3}},
      {"stages.0.blocks.0.layers.0.conv.weight", {48, 48, 3, 3}},
      {"stages.0.blocks.0.layers.5.bn.bias", {48}},
      {"stages.0.blocks.0.aggregation_squeeze_conv.conv.weight", {64, 336, 1, 1}},
      {"stages.0.blocks.0.aggregation_excitation_conv.conv.weight", {128, 64, 1, 1}},
      {"stages.1.blocks.0.layers.0.conv.weight", {96, 128, 3, 3}},
      {"stages.2.blocks.2.layers.0.conv1.conv.weight", {192, 1024, 1, 1}},
      {"stages.2.blocks.2.layers.5.conv2.conv.weight", {192, 1, 5, 5}},
      {"stages.3.blocks.0.aggregation_squeeze_conv.conv.weight", {1024, 3328, 1, 1}},
      {"stages.3.blocks.0.aggregation_excitation_conv.bn.weight", {2048}},
  };
  for (const auto& [name, shape] : expected) {
    ASSERT_TRUE(params.contains(name)) << name;
    EXPECT_EQ(params[name].sizes().vec(), shape) << name;
  }
  EXPECT_TRUE(h.named_buffers().contains("stages.3.blocks.0.layers.0.conv2.bn.running_var"));
  // The unused ImageNet tail, as PaddleOCR's state dict has it (LibTorch's [out, in] Linear layout).
  ASSERT_TRUE(params.contains("last_conv.weight"));
  EXPECT_EQ(params["last_conv.weight"].sizes().vec(), (std::vector<int64_t>{2048, 2048, 1, 1}));
  ASSERT_TRUE(params.contains("fc.weight"));
  EXPECT_EQ(params["fc.weight"].sizes().vec(), (std::vector<int64_t>{1000, 2048}));
  EXPECT_FALSE(Holder{spec(true, false)}.named_parameters().contains("fc.weight"));
  EXPECT_FALSE(params.contains("stages.0.blocks.0.layers.6.conv.weight"));         // layer_num 6: 0..5
  EXPECT_FALSE(params.contains("stages.2.blocks.3.layers.0.conv1.conv.weight"));   // stage 3 has 3 blocks
  EXPECT_FALSE(params.contains("stages.2.blocks.0.layers.0.conv.weight"));         // light layers: conv1 / conv2
  for (const auto& kv : params) EXPECT_EQ(kv.key().find("lab"), std::string::npos) << kv.key();  // B4: no LAB
  EXPECT_FALSE(h.layers.stages[2]->blocks[0]->identity());
  EXPECT_TRUE(h.layers.stages[2]->blocks[1]->identity());
  EXPECT_TRUE(h.layers.stages[2]->blocks[0]->light());
  EXPECT_FALSE(h.layers.stages[1]->blocks[0]->light());

  // The det variant: stage 1 keeps the size, no downsampling conv.
  EXPECT_FALSE(Holder{spec(true, false)}.named_parameters().contains("stages.0.downsample.conv.weight"));
  // use_lab: a LAB after each activation only.
  const auto lab = Holder{spec(false, true, true)}.named_parameters();
  EXPECT_TRUE(lab.contains("stem.stem1.lab.scale"));
  EXPECT_TRUE(lab.contains("stages.2.blocks.0.layers.0.conv2.lab.bias"));
  EXPECT_FALSE(lab.contains("stages.2.blocks.0.layers.0.conv1.lab.scale"));
  EXPECT_FALSE(lab.contains("stages.0.downsample.lab.scale"));
}

TEST(PPHGNetV2, StemPadsAsPaddlesSame) {
  torch::manual_seed(2);
  torch::NoGradGuard g;
  // The 2x2 "SAME" conv pads bottom and right only: output (i, j) is the
  // window starting at (i, j), which a conv padded by 1 on all sides puts at (i + 1, j + 1).
  HGV2ConvBNAct c(4, 3, 2, std::vector<int64_t>{1, 1}, 1, /*act=*/false, /*use_lab=*/false, /*same_pad=*/true);
  c->eval();
  EXPECT_EQ(c->same_pads(), (std::vector<int64_t>{0, 0, 1, 1}));
  const torch::Tensor x = torch::randn({1, 4, 5, 7});
  const torch::Tensor ref =
      c->bn(torch::conv2d(x, c->conv->weight, torch::Tensor(), 1, 1).slice(2, 1).slice(3, 1));
  EXPECT_TRUE(torch::allclose(c(x), ref, 1e-5, 1e-6));
  // The pool's padding never wins: on an all-negative map the bottom-right
  // output is the pixel itself, not 0 (zero padding would give 0).
  const torch::Tensor neg = -torch::rand({1, 2, 3, 4}) - 0.5;
  const torch::Tensor p = hgv2_stem_pool(neg);
  EXPECT_EQ(p.sizes(), neg.sizes());
  EXPECT_TRUE(torch::equal(p.select(2, 2).select(2, 3), neg.select(2, 2).select(2, 3)));
  EXPECT_LT(p.max().item<float>(), 0.0f);
}

TEST(PPHGNetV2, DetVariantGivesFourMapsAtStrides4To32) {
  Holder h{spec(true, false)};
  EXPECT_EQ(h.layers.out_channels, (std::vector<int64_t>{128, 512, 1024, 2048}));
  h.eval();
  torch::NoGradGuard g;
  const auto outs = h.layers.features(torch::rand({1, 3, 64, 96}));
  ASSERT_EQ(outs.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(outs[i].size(1), h.layers.out_channels[i]);
    EXPECT_EQ(outs[i].size(2), 64 >> (i + 2));
    EXPECT_EQ(outs[i].size(3), 96 >> (i + 2));
  }
}

TEST(PPHGNetV2, RefusesWhatPaddleOcrDoesNotBuild) {
  PPHGNetV2Spec s = rec_spec();
  s.variant = "B5";
  const std::string msg = test::message_of<UsageError>([&] { Holder{s}; });
  EXPECT_NE(msg.find("PPHGNetV2_B5"), std::string::npos) << msg;
  s = spec(true, false);
  s.out_indices = {0, 4};
  EXPECT_THROW(Holder{s}, UsageError);
}

// --- ONNX export ---------------------------------------------------------

// Random BN statistics and affine parameters (so the folding is exercised,
// not identity statistics) and LAB values, then eval.
void randomise(Holder& h) {
  torch::NoGradGuard g;
  for (auto& mod : h.modules(/*include_self=*/false))
    if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
      bn->running_mean.uniform_(-0.2, 0.2);
      bn->running_var.uniform_(0.5, 1.5);
      bn->weight.uniform_(0.5, 1.5);
      bn->bias.uniform_(-0.2, 0.2);
    }
  for (auto& kv : h.named_parameters())
    if (kv.key().find(".lab.") != std::string::npos) kv.value().uniform_(0.8, 1.2);
  h.eval();
}

// max |LibTorch - ORT| relative to the largest LibTorch value (deep maps
// with random statistics are far from unit scale).
double relative_difference(const torch::Tensor& ours, const torch::Tensor& ort) {
  EXPECT_EQ(ours.sizes(), ort.sizes());
  if (ours.sizes() != ort.sizes()) return 1e9;
  return (ours - ort).abs().max().item<double>() / std::max(1.0, ours.abs().max().item<double>());
}

double rec_export_difference(Holder& h, const std::vector<torch::Tensor>& inputs, const std::string& name) {
  OnnxEmitter e;
  const std::string x = e.input("x", {-1, 3, -1, -1});
  e.output(export_blocks::pphgnet_v2_last(e, x, h.layers, "backbone"), "features", {-1, 2048, -1, -1});
  const std::string path = test::fresh_dir(name) + "/inference.onnx";
  write_onnx_graph(e.graph(), path);
  check_onnx_model(path);
  double worst = 0;
  torch::NoGradGuard g;
  for (const auto& in : inputs)
    worst = std::max(worst, relative_difference(h.layers.last(in), test::ort_output(path, "rec", in)));
  return worst;
}

TEST(PPHGNetV2, RecExportMatchesOrt) {
  torch::manual_seed(3);
  Holder h{rec_spec()};
  randomise(h);
  torch::manual_seed(4);
  const double d = rec_export_difference(
      h, {torch::rand({1, 3, 48, 320}) * 2 - 1, torch::rand({2, 3, 48, 101}) * 2 - 1}, "onnx_pphgnet_v2_rec");
  std::printf("PPHGNetV2_B4 text_rec: max |LibTorch - ORT| / max |LibTorch| = %.3g\n", d);
  EXPECT_LE(d, 1e-4);
}

TEST(PPHGNetV2, LabExportMatchesOrt) {
  torch::manual_seed(5);
  Holder h{spec(false, true, /*use_lab=*/true)};
  randomise(h);
  const double d = rec_export_difference(h, {torch::rand({1, 3, 32, 64}) * 2 - 1}, "onnx_pphgnet_v2_lab");
  std::printf("PPHGNetV2_B4 with LAB: max |LibTorch - ORT| / max |LibTorch| = %.3g\n", d);
  EXPECT_LE(d, 1e-4);
}

TEST(PPHGNetV2, DetExportMatchesOrt) {
  torch::manual_seed(6);
  Holder h{spec(true, false)};
  randomise(h);
  OnnxEmitter e;
  const std::string x = e.input("x", {-1, 3, -1, -1});
  const auto outs = export_blocks::pphgnet_v2_features(e, x, h.layers, "backbone");
  ASSERT_EQ(outs.size(), 4u);
  for (size_t i = 0; i < outs.size(); ++i)
    e.output(outs[i], "level" + std::to_string(i), {-1, h.layers.out_channels[i], -1, -1});
  const std::string path = test::fresh_dir("onnx_pphgnet_v2_det") + "/inference.onnx";
  write_onnx_graph(e.graph(), path);
  check_onnx_model(path);

  torch::manual_seed(7);
  const torch::Tensor in = torch::rand({1, 3, 64, 96}) * 2 - 1;
  RuntimeParams rt;
  rt.cpu_threads = 1;
  rt.ir_optim = false;  // the file as written
  OrtModel ort(path, rt, "det", "--det_model_dir");
  const auto views = ort.run_all(in.data_ptr<float>(), in.sizes().vec());
  ASSERT_EQ(views.size(), 4u);
  torch::NoGradGuard g;
  const auto ours = h.layers.features(in);
  double worst = 0;
  for (size_t i = 0; i < 4; ++i) {
    const torch::Tensor theirs =
        torch::from_blob(const_cast<float*>(views[i].data), views[i].shape, torch::kFloat32).clone();
    worst = std::max(worst, relative_difference(ours[i], theirs));
  }
  std::printf("PPHGNetV2_B4 det: max |LibTorch - ORT| / max |LibTorch| = %.3g\n", worst);
  EXPECT_LE(worst, 1e-4);
}

}  // namespace
}  // namespace ocrforge
