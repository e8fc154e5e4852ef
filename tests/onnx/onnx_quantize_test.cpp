// The int8 quantiser on tiny graphs (Conv, depthwise Conv, MatMul, Gemm):
// which layers become integer ops, and ONNX Runtime's int8 outputs against
// fp32 within the error int8 allows.
#include "ocrforge/onnx/onnx_quantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/ort_model.h"
#include "onnx/tiny_quant_graphs.h"
#include "test_support.h"

namespace ocrforge {
namespace {

std::vector<CalibrationInput> inputs(int n, uint64_t seed) {
  std::vector<CalibrationInput> v;
  for (int i = 0; i < n; ++i) v.push_back({test::gaussian(4 * 12 * 12, seed + i), {1, 4, 12, 12}});
  return v;
}

RuntimeParams rt() {
  RuntimeParams r;
  r.cpu_threads = 1;
  return r;
}

std::vector<float> run(const std::string& model, const CalibrationInput& in) {
  OrtModel m(model, rt(), "test", "test");
  const TensorView out = m.run(in.data.data(), in.shape);
  return {out.data, out.data + out.numel()};
}

// max |int8 - fp32| / max |fp32| over several inputs the calibration did not see.
double relative_error(const std::string& fp32, const std::string& int8, double* max_abs_diff) {
  double worst = 0;
  *max_abs_diff = 0;
  for (const auto& in : inputs(4, 1000)) {
    const std::vector<float> a = run(fp32, in), b = run(int8, in);
    EXPECT_EQ(a.size(), b.size());
    double ref = 0, diff = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      ref = std::max(ref, static_cast<double>(std::fabs(a[i])));
      diff = std::max(diff, static_cast<double>(std::fabs(a[i] - b[i])));
    }
    worst = std::max(worst, diff / ref);
    *max_abs_diff = std::max(*max_abs_diff, diff);
  }
  std::cout << "int8 vs fp32: max |diff| / max |fp32| = " << worst << "\n";
  return worst;
}

QuantizeParams calibrated(const std::string& model, QuantizeParams p, const std::string& dir) {
  p.ranges = calibrate_ranges(model, calibration_tensors(model, p), inputs(16, 1), rt(), dir + "/calib.onnx");
  return p;
}

TEST(OnnxQuantize, DefaultRulesQuantiseInnerConvsAndMatMulAndKeepBoundaries) {
  const std::string dir = test::fresh_dir("quant_rules");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  const QuantizeParams p = calibrated(fp32, QuantizeParams{}, dir);
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  // conv_b and conv_c; the MatMul. Kept: conv_a (first), the depthwise conv, the Gemm (last).
  EXPECT_EQ(r.convs_quantized, 2);
  EXPECT_EQ(r.matmuls_quantized, 1);
  ASSERT_EQ(r.kept_fp32.size(), 3u);
  const std::string kept = r.kept_fp32[0] + "|" + r.kept_fp32[1] + "|" + r.kept_fp32[2];
  EXPECT_NE(kept.find("'a_node': reads the graph input"), std::string::npos) << kept;
  EXPECT_NE(kept.find("'dw_node': grouped"), std::string::npos) << kept;
  EXPECT_NE(kept.find("'y_node': feeds a graph output"), std::string::npos) << kept;
  auto ops = onnx_op_counts(dir + "/int8.onnx");
  EXPECT_EQ(ops["QLinearConv"], 2);
  EXPECT_EQ(ops["com.microsoft.DynamicQuantizeMatMul"], 1);
  EXPECT_EQ(ops["Conv"], 2);
  EXPECT_EQ(ops["Gemm"], 1);
  EXPECT_EQ(ops["MatMul"], 0);
  EXPECT_EQ(ops["Constant"], 0) << "the replaced float weight (a Constant node) must be gone";
  double diff = 0;
  const double rel = relative_error(fp32, dir + "/int8.onnx", &diff);
  EXPECT_LT(rel, 0.05);
  EXPECT_GT(diff, 0) << "identical outputs: the int8 kernels did not run";
}

TEST(OnnxQuantize, EveryConvMatMulAndGemmStaticWithinInt8Error) {
  const std::string dir = test::fresh_dir("quant_all_static");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams p;
  p.keep_input_layers = p.keep_output_layers = p.keep_grouped_convs = false;
  p = calibrated(fp32, p, dir);
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  EXPECT_EQ(r.convs_quantized, 4);
  EXPECT_EQ(r.matmuls_quantized, 2);
  EXPECT_TRUE(r.kept_fp32.empty());
  EXPECT_LT(r.bytes_after, r.bytes_before);
  auto ops = onnx_op_counts(dir + "/int8.onnx");
  EXPECT_EQ(ops["QLinearConv"], 4);
  EXPECT_EQ(ops["com.microsoft.DynamicQuantizeMatMul"], 2);
  EXPECT_EQ(ops["Conv"] + ops["MatMul"] + ops["Gemm"], 0);
  double diff = 0;
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), 0.06);
  EXPECT_GT(diff, 0);
}

TEST(OnnxQuantize, DynamicConvIntegerWithinInt8Error) {
  const std::string dir = test::fresh_dir("quant_dynamic");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams p;
  p.conv = QuantizeParams::ConvMode::Dynamic;
  p.keep_input_layers = p.keep_output_layers = p.keep_grouped_convs = false;
  EXPECT_TRUE(calibration_tensors(fp32, p).empty()) << "dynamic quantisation needs no calibration";
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  EXPECT_EQ(r.convs_quantized, 4);
  auto ops = onnx_op_counts(dir + "/int8.onnx");
  EXPECT_EQ(ops["ConvInteger"], 4);
  EXPECT_EQ(ops["DynamicQuantizeLinear"], 4);
  double diff = 0;
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), 0.06);
  EXPECT_GT(diff, 0);
}

TEST(OnnxQuantize, Opset9GraphIsRaisedTo11WithClipAndSliceRewritten) {
  const std::string dir = test::fresh_dir("quant_opset9");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny9.onnx", 9);
  const QuantizeParams p = calibrated(fp32, QuantizeParams{}, dir);
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  EXPECT_EQ(r.opset_before, 9);
  EXPECT_EQ(r.opset_after, 11);
  EXPECT_EQ(r.convs_quantized, 2);
  double diff = 0;
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), 0.05);
  EXPECT_GT(diff, 0);
}

TEST(OnnxQuantize, KeepListAndMatMulOnlyLeaveConvsFloat) {
  const std::string dir = test::fresh_dir("quant_keep");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams p;
  p.keep_fp32 = {"c_node"};
  p = calibrated(fp32, p, dir);
  QuantizeReport r = quantize_onnx_model(fp32, dir + "/keep.onnx", p);
  EXPECT_EQ(r.convs_quantized, 1);
  EXPECT_EQ(onnx_op_counts(dir + "/keep.onnx")["QLinearConv"], 1);
  QuantizeParams leading;
  leading.keep_leading_convs = 1;
  leading = calibrated(fp32, leading, dir);
  r = quantize_onnx_model(fp32, dir + "/leading.onnx", leading);
  EXPECT_EQ(r.convs_quantized, 1) << "conv_b (the first quantisable conv) kept, conv_c int8";
  std::string kept;
  for (const auto& k : r.kept_fp32) kept += k + "|";
  EXPECT_NE(kept.find("'b_node': one of the first 1 "), std::string::npos) << kept;
  QuantizeParams mm;
  mm.conv = QuantizeParams::ConvMode::Keep;
  r = quantize_onnx_model(fp32, dir + "/mm.onnx", mm);
  EXPECT_EQ(r.convs_quantized, 0);
  EXPECT_EQ(r.matmuls_quantized, 1);
  EXPECT_EQ(r.opset_after, 11);
}

TEST(OnnxQuantize, StaticWithoutRangesNamesTheTensor) {
  const std::string dir = test::fresh_dir("quant_noranges");
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  try {
    quantize_onnx_model(fp32, dir + "/int8.onnx", QuantizeParams{});
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("calibrated range of 'a_relu'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/int8.onnx")) << "nothing half-written";
}

}  // namespace
}  // namespace ocrforge
