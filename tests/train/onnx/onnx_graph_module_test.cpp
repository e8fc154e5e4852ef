// The shipped PP-OCR ONNX graphs run as LibTorch modules: the same outputs as
// ONNX Runtime on real pictures, weights as parameters, gradients reaching
// them, and a clear error for an operator we cannot run.
// ctest-labels: model train (runs the shipped models in ONNX Runtime)
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/onnx/onnx_ops.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "train/onnx/shipped_model_inputs.h"

namespace ocrforge {
namespace {

// Largest |LibTorch - ORT| on `x` for the shipped model of `role`.
double max_diff_vs_ort(const std::string& role, const torch::Tensor& x, OnnxGraphModule& m) {
  const torch::Tensor theirs = test::ort_output(test::model_root() + "/" + role + "/inference.onnx", role, x);
  torch::NoGradGuard no_grad;
  const torch::Tensor ours = m->forward(x).contiguous();
  EXPECT_EQ(ours.sizes(), theirs.sizes()) << role;
  if (ours.sizes() != theirs.sizes()) return 1e9;
  return (ours - theirs).abs().max().item<double>();
}

TEST(OnnxGraphModule, ClassifierMatchesOnnxRuntime) {
  OnnxGraphModule m(test::model_root() + "/cls/inference.onnx");
  m->eval();
  EXPECT_LE(max_diff_vs_ort("cls", test::sample_picture("ch_word_2.jpg", 48, 192, false), m), 1e-4);
  EXPECT_EQ(m->pre_activation_output().empty(), false);  // the logits before the Softmax
}

TEST(OnnxGraphModule, RecognizerMatchesOnnxRuntimeAtTwoWidths) {
  OnnxGraphModule m(test::model_root() + "/rec/inference.onnx");
  m->eval();
  EXPECT_LE(max_diff_vs_ort("rec", test::sample_picture("ch_word_3.jpg", 48, 320, false), m), 1e-4);
  EXPECT_LE(max_diff_vs_ort("rec", test::sample_picture("imgs_en_254.jpg", 48, 160, false), m), 1e-4);
}

TEST(OnnxGraphModule, DetectorMatchesOnnxRuntime) {
  OnnxGraphModule m(test::model_root() + "/det/inference.onnx");
  m->eval();
  EXPECT_LE(max_diff_vs_ort("det", test::sample_picture("imgs_11.jpg", 256, 320, true), m), 1e-4);
}

TEST(OnnxGraphModule, WeightsAreParametersThatReceiveGradients) {
  OnnxGraphModule m(test::model_root() + "/cls/inference.onnx");
  int64_t learned = 0, fixed = 0;
  for (const auto& p : m->parameters()) learned += p.numel();
  for (const auto& b : m->buffers()) fixed += b.numel();
  // The mobile v2.0 classifier's weights, counted in the file with the onnx Python package:
  // Conv 124,682 + BatchNormalization scale / bias 4,272 + the final FC 200 x 2 + 2.
  EXPECT_EQ(learned, 124682 + 4272 + 402);
  EXPECT_GE(fixed, 4272);           // at least the running means / variances
  EXPECT_LT(fixed, 4272 + 100);     // plus a few scalars and shape constants
  const torch::Tensor logits = m->forward(test::sample_picture("ch_word_2.jpg", 48, 192, false), m->pre_activation_output());
  ASSERT_EQ(logits.sizes().vec(), (std::vector<int64_t>{1, 2}));
  torch::nn::functional::cross_entropy(logits, torch::tensor({1}, torch::kInt64)).backward();
  int64_t with_grad = 0, total = 0;
  for (const auto& p : m->parameters()) {
    ++total;
    with_grad += p.grad().defined() && p.grad().abs().sum().item<double>() > 0;
  }
  EXPECT_GT(with_grad, total * 9 / 10) << with_grad << " of " << total;
}

TEST(OnnxGraphModule, MissingOrBrokenFilesAreErrorsNamingThem) {
  const std::string dir = test::fresh_dir("onnx_module");
  try {
    OnnxGraphModule m(dir + "/none.onnx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("none.onnx"), std::string::npos) << e.what();
  }
  test::write_text(dir + "/junk.onnx", "this is not a protobuf \xff\xff\xff");
  try {
    OnnxGraphModule m(dir + "/junk.onnx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an ONNX model"), std::string::npos) << e.what();
  }
}

TEST(OnnxOps, UnknownOperatorNamesNodeAndOp) {
  OnnxNode n;
  n.op = "GridSample";
  n.name = "warp_0";
  try {
    run_onnx_op(n, {torch::zeros({1})});
    FAIL();
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("GridSample 'warp_0'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("not supported"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace ocrforge
