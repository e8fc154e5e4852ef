// The shipped PP-OCRv4 detector (models/PP-OCRv4/det/inference.onnx,
// PaddleOCR's PPLCNetV3 x0.75 + RSEFPN 96 + DBHead) loaded into the native
// network built from PaddleOCR's PP-OCRv4_mobile_det.yml Architecture: its
// LibTorch eval forward equals ONNX Runtime on the file, on real pictures;
// the native network exported by det_model_to_onnx equals LibTorch; and a
// network of another shape is refused with an error naming the file.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include "ocrforge/train/tasks/det/det_paddle_onnx.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/export/export_model.h"
#include "ocrforge/train/nn/paddle_onnx_weights.h"
#include "ocrforge/train/tasks/det/det_model_onnx.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

const char* kMobileDet = R"(
model_type: det
algorithm: DB
Backbone: {name: PPLCNetV3, scale: 0.75, det: True}
Neck: {name: RSEFPN, out_channels: 96, shortcut: True}
Head: {name: DBHead, k: 50, fix_nan: True}
)";

std::string shipped() { return test::model_root() + "/det/inference.onnx"; }

DetModel shipped_native() {
  DetArchSpec spec = det_arch_from_yaml(YAML::Load(kMobileDet));
  spec.backbone.rep_deploy = true;
  DetModel m(spec);
  load_det_paddle_onnx(*m, shipped());
  m->eval();
  return m;
}

double max_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

// Real pictures at sizes DetResizeForTest gives (multiples of 32).
std::vector<torch::Tensor> pictures() {
  return {test::sample_picture("imgs_11.jpg", 480, 640, true), test::sample_picture("imgs_en_254.jpg", 320, 448, true)};
}

TEST(DetPaddleOnnx, ShippedWeightsInNativeNetworkMatchOrtOnTheFile) {
  DetModel m = shipped_native();
  torch::NoGradGuard g;
  for (const auto& x : pictures()) {
    const torch::Tensor ours = m->forward(x);
    const torch::Tensor ort = test::ort_output(shipped(), "det", x);
    ASSERT_EQ(ours.sizes(), ort.sizes());
    // Text and background both present: the map spans nearly [0, 1].
    EXPECT_GT((ort.max() - ort.min()).item<double>(), 0.5);
    const double d = max_diff(ours, ort);
    std::printf("native PPLCNetV3 det vs ORT on the shipped file (%lldx%lld): max |diff| %.3g\n",
                static_cast<long long>(x.size(2)), static_cast<long long>(x.size(3)), d);
    EXPECT_LE(d, 1e-4);
  }
}

TEST(DetPaddleOnnx, NativeExportOfTheLoadedNetworkMatchesLibTorch) {
  DetModel m = shipped_native();
  const std::string path = test::fresh_dir("det_pplcnet_export") + "/inference.onnx";
  write_onnx_graph(det_model_to_onnx(*m), path);
  check_onnx_model(path);
  torch::NoGradGuard g;
  for (const auto& x : pictures()) {
    const double d = max_diff(m->forward(x), test::ort_output(path, "det", x));
    std::printf("native PPLCNetV3 det vs ORT on its own export: max |diff| %.3g\n", d);
    EXPECT_LE(d, 1e-4);
  }
}

TEST(DetPaddleOnnx, TrainingFormExportFusesTheBranches) {
  // A fresh training-form network: random BN affine parameters, then the
  // running statistics of one batch (momentum 1), so activations stay in a
  // trained network's range and the map is not saturated at 0 / 1. The
  // exporter writes each LearnableRepLayer as one fused conv.
  torch::manual_seed(11);
  DetModel m(det_arch_from_yaml(YAML::Load(kMobileDet)));
  {
    torch::NoGradGuard g;
    for (auto& mod : m->modules(false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) {
        bn->weight.uniform_(0.5, 1.5);
        bn->bias.uniform_(-0.2, 0.2);
        bn->options.momentum(1.0);
      }
    m->train();
    m->forward(pictures()[1]);
    for (auto& mod : m->modules(false))
      if (auto* bn = mod->as<torch::nn::BatchNorm2dImpl>()) bn->running_var.clamp_min_(0.05);
  }
  m->eval();
  const std::string path = test::fresh_dir("det_pplcnet_train_form_export") + "/inference.onnx";
  write_onnx_graph(det_model_to_onnx(*m), path);
  torch::NoGradGuard g;
  const auto x = pictures()[1];
  const torch::Tensor ours = m->forward(x);
  // Most of the map away from the saturated ends: differences would show.
  const double inside = ((ours > 0.01) & (ours < 0.99)).to(torch::kFloat64).mean().item<double>();
  EXPECT_GT(inside, 0.5);
  const double d = max_diff(ours, test::ort_output(path, "det", x));
  std::printf("training-form PPLCNetV3 det vs ORT on its fused export: max |diff| %.3g (%.0f%% of the map in (0.01, 0.99))\n",
              d, 100 * inside);
  EXPECT_LE(d, 1e-4);
}

TEST(DetPaddleOnnx, AnotherShapeOrTheTrainingFormIsRefusedNamingTheFile) {
  YAML::Node a = YAML::Load(kMobileDet);
  a["Backbone"]["scale"] = 0.5;
  DetArchSpec spec = det_arch_from_yaml(a);
  spec.backbone.rep_deploy = true;
  DetModel half(spec);
  const auto before = half->named_parameters()["backbone.conv1.conv.weight"].clone();
  const std::string msg = test::message_of<Error>([&] { load_det_paddle_onnx(*half, shipped()); });
  EXPECT_NE(msg.find("inference.onnx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not the network the config builds"), std::string::npos) << msg;
  EXPECT_TRUE(torch::equal(before, half->named_parameters()["backbone.conv1.conv.weight"]));  // nothing loaded

  DetModel training_form(det_arch_from_yaml(YAML::Load(kMobileDet)));
  EXPECT_NE(test::message_of<Error>([&] { load_det_paddle_onnx(*training_form, shipped()); }).find("training form"),
            std::string::npos);
}

TEST(DetPaddleOnnx, DeployFormHoldsExactlyTheFilesWeights) {
  // The native deploy form reads every weight of PaddleOCR's exported file
  // once: element counts agree in total (the parameter-count check against
  // PaddleOCR's own model).
  DetModel m = shipped_native();
  const auto names = det_paddle_onnx_weight_order(*m);
  const auto weights = paddle_onnx_weights_in_use_order(read_onnx_graph(shipped()));
  int64_t file_total = 0, native_total = 0;
  for (const auto& w : weights) file_total += w.value.numel();
  auto params = m->named_parameters();
  auto buffers = m->named_buffers();
  for (const auto& n : names) native_total += (params.contains(n) ? params[n] : buffers[n]).numel();
  std::printf("shipped det file: %zu weight tensors, %lld values; native network reads %lld\n", weights.size(),
              static_cast<long long>(file_total), static_cast<long long>(native_total));
  EXPECT_EQ(native_total, file_total);
}

// What `ocrforge export -c configs/det/PP-OCRv4/PP-OCRv4_mobile_det.yml -o
// Global.pretrained_model=<shipped> Global.save_inference_dir=OUT` runs: the
// config's training-form network is built in inference form instead, takes
// the file, and its export computes what the file does.
TEST(DetPaddleOnnx, ExportFromThePaddleOcrConfigWithTheShippedFileComputesTheShippedMap) {
  const std::string out = test::fresh_dir("det_pplcnet_cli_export");
  Config c = Config::load_file(test::source_dir() + "/configs/det/PP-OCRv4/PP-OCRv4_mobile_det.yml");
  c.apply_overrides({"Global.pretrained_model=" + shipped(), "Global.save_inference_dir=" + out});
  const ExportReport r = export_inference_model(c);
  EXPECT_EQ(r.weights_from, shipped());
  torch::NoGradGuard g;
  for (const auto& x : pictures())
    EXPECT_LE(max_diff(test::ort_output(r.onnx_path, "det", x), test::ort_output(shipped(), "det", x)), 1e-4);
}

}  // namespace
}  // namespace ocrforge
