// The int8 quantiser on tiny graphs (Conv, depthwise Conv, MatMul, Gemm):
// which layers become integer ops, and ONNX Runtime's int8 outputs against
// fp32 within the error int8 allows.
#include "ocrforge/onnx/onnx_quantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "ocrforge/core/cpu_features.h"
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

}  // namespace

// gtest prints a test's parameter in its name: the scheme's name, not its bytes.
void PrintTo(Int8Weights w, std::ostream* os) { *os << int8_weights_name(w); }

namespace {

// The accuracy tests run once per weight scheme, so a VNNI machine also
// checks the schemes that AVX2-only machines get. s8 is skipped where ORT's
// uint8 x int8 products saturate (AVX2, AVX-512 without VNNI): there its
// error is the CPU's, not the quantiser's (Signed8SaturatesExactlyWhere...).
class OnnxQuantizeScheme : public ::testing::TestWithParam<Int8Weights> {
 protected:
  void SetUp() override {
    if (GetParam() == Int8Weights::Signed8 && u8s8_products(cpu_features()) == U8S8Products::SaturateInt16Pairs)
      GTEST_SKIP() << "s8 products saturate on this CPU (" << int8_cpu_kind(cpu_features())
                   << "); --precision int8 uses s7 or u8 here";
  }
};

// The int8-vs-fp32 limit of a scheme: `eight_bit` for s8 and u8 (the same
// integers). s7 weights have half their resolution, and on these tiny graphs
// (a few weights per channel, nothing to average the rounding out) that
// rounding alone, applied to the float model, moves the output about ten
// times as far as 8-bit rounding does; so s7 gets a wider limit. Exactness
// of the s7 kernels themselves is Signed8SaturatesExactly...'s job.
double limit_of(Int8Weights w, double eight_bit) { return w == Int8Weights::Signed7 ? 0.2 : eight_bit; }

INSTANTIATE_TEST_SUITE_P(Schemes, OnnxQuantizeScheme,
                         ::testing::Values(Int8Weights::Signed8, Int8Weights::Signed7, Int8Weights::Unsigned8),
                         [](const ::testing::TestParamInfo<Int8Weights>& info) {
                           return std::string(int8_weights_name(info.param));
                         });

std::string scheme_dir(const std::string& dir, Int8Weights w) { return dir + "/" + int8_weights_name(w); }

TEST_P(OnnxQuantizeScheme, DefaultRulesQuantiseInnerConvsAndMatMulAndKeepBoundaries) {
  const Int8Weights w = GetParam();
  const std::string dir = test::fresh_dir(std::string("quant_rules_") + int8_weights_name(w));
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams rules;
  rules.weights = w;
  const QuantizeParams p = calibrated(fp32, rules, dir);
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
  EXPECT_LT(rel, limit_of(w, 0.05));
  EXPECT_GT(diff, 0) << "identical outputs: the int8 kernels did not run";
}

TEST_P(OnnxQuantizeScheme, EveryConvMatMulAndGemmStaticWithinInt8Error) {
  const Int8Weights w = GetParam();
  const std::string dir = test::fresh_dir(std::string("quant_all_static_") + int8_weights_name(w));
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams p;
  p.weights = w;
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
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), limit_of(w, 0.06));
  EXPECT_GT(diff, 0);
}

TEST_P(OnnxQuantizeScheme, DynamicConvIntegerWithinInt8Error) {
  const Int8Weights w = GetParam();
  const std::string dir = test::fresh_dir(std::string("quant_dynamic_") + int8_weights_name(w));
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny.onnx");
  QuantizeParams p;
  p.weights = w;
  p.conv = QuantizeParams::ConvMode::Dynamic;
  p.keep_input_layers = p.keep_output_layers = p.keep_grouped_convs = false;
  EXPECT_TRUE(calibration_tensors(fp32, p).empty()) << "dynamic quantisation needs no calibration";
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  EXPECT_EQ(r.convs_quantized, 4);
  auto ops = onnx_op_counts(dir + "/int8.onnx");
  EXPECT_EQ(ops["ConvInteger"], 4);
  EXPECT_EQ(ops["DynamicQuantizeLinear"], 4);
  double diff = 0;
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), limit_of(w, 0.06));
  EXPECT_GT(diff, 0);
}

TEST_P(OnnxQuantizeScheme, Opset9GraphIsRaisedTo11WithClipAndSliceRewritten) {
  const Int8Weights w = GetParam();
  const std::string dir = test::fresh_dir(std::string("quant_opset9_") + int8_weights_name(w));
  const std::string fp32 = test::write_tiny_quant_graph(dir + "/tiny9.onnx", 9);
  QuantizeParams rules;
  rules.weights = w;
  const QuantizeParams p = calibrated(fp32, rules, dir);
  const QuantizeReport r = quantize_onnx_model(fp32, dir + "/int8.onnx", p);
  EXPECT_EQ(r.opset_before, 9);
  EXPECT_EQ(r.opset_after, 11);
  EXPECT_EQ(r.convs_quantized, 2);
  double diff = 0;
  EXPECT_LT(relative_error(fp32, dir + "/int8.onnx", &diff), limit_of(w, 0.05));
  EXPECT_GT(diff, 0);
}

// ORT's uint8 x int8 kernels on AVX2, and on AVX-512 without VNNI, add pairs
// of products in a saturating int16 (vpmaddubsw): 255 * 127 + 255 * 127 =
// 64770 becomes 32767, and y comes out near 4 instead of 8. s7 (two products
// 255 * 64 fit) and u8 (operands widened) are exact on every CPU. So this
// holds the CPU's own features (uncapped: OCRFORGE_MAX_CPU_ISA does not
// reach ORT's kernels) to what ORT really does on the machine running the
// test, for a static QLinearConv and a DynamicQuantizeMatMul.
TEST(OnnxQuantize, Signed8SaturatesExactlyWhereTheCpuKindSaysSo) {
  const CpuFeatures& cpu = uncapped_cpu_features();
  const bool saturating = u8s8_products(cpu) == U8S8Products::SaturateInt16Pairs;
  std::cout << "CPU: " << int8_cpu_kind(cpu) << " [" << cpu.names() << "]\n";
  const std::string dir = test::fresh_dir("quant_saturation");
  for (bool conv : {true, false}) {
    const std::string fp32 = test::write_all_ones_graph(dir + (conv ? "/conv.onnx" : "/matmul.onnx"), conv);
    const CalibrationInput ones{std::vector<float>(32, 1.f),
                                conv ? std::vector<int64_t>{1, 8, 2, 2} : std::vector<int64_t>{1, 8}};
    for (Int8Weights w : {Int8Weights::Signed8, Int8Weights::Signed7, Int8Weights::Unsigned8}) {
      const std::string what = std::string(conv ? "QLinearConv " : "DynamicQuantizeMatMul ") + int8_weights_name(w);
      QuantizeParams p;
      p.weights = w;
      p.keep_input_layers = p.keep_output_layers = false;
      p.ranges = {{"x", {0.f, 1.f}}, {"y", {0.f, 8.f}}};
      const std::string out = scheme_dir(dir, w) + (conv ? "-conv.onnx" : "-matmul.onnx");
      const QuantizeReport r = quantize_onnx_model(fp32, out, p);
      ASSERT_EQ(r.convs_quantized + r.matmuls_quantized, 1) << what;
      const std::vector<float> y = run(out, ones);
      ASSERT_EQ(y.size(), conv ? 16u : 4u) << what;
      const float lo = *std::min_element(y.begin(), y.end()), hi = *std::max_element(y.begin(), y.end());
      std::cout << what << ": y in [" << lo << ", " << hi << "] (exact: 8)\n";
      if (w == Int8Weights::Signed8 && saturating) {
        EXPECT_LT(hi, 5.f) << what << " did not saturate, but " << int8_cpu_kind(cpu)
                           << " says it would: cpu_features() disagrees with ORT's kernels";
      } else {
        EXPECT_NEAR(lo, 8.f, 0.05f) << what << " is not exact on " << int8_cpu_kind(cpu);
        EXPECT_NEAR(hi, 8.f, 0.05f) << what;
      }
    }
  }
}

TEST(OnnxQuantize, SchemesStoreTheirWeightTypesAndRanges) {
  EXPECT_EQ(int8_weights_from_name("s7"), Int8Weights::Signed7);
  EXPECT_THROW(int8_weights_from_name("s9"), Error);
  const std::string dir = test::fresh_dir("quant_scheme_types");
  const std::string fp32 = test::write_all_ones_graph(dir + "/matmul.onnx", false);
  for (Int8Weights w : {Int8Weights::Signed8, Int8Weights::Signed7, Int8Weights::Unsigned8}) {
    QuantizeParams p;
    p.weights = w;
    p.keep_input_layers = p.keep_output_layers = false;
    const std::string out = scheme_dir(dir, w) + ".onnx";
    quantize_onnx_model(fp32, out, p);
    const IntegerInitializer q = onnx_integer_initializer(out, "w_int8");
    const IntegerInitializer zp = onnx_integer_initializer(out, "w_zero_point");
    EXPECT_EQ(q.type, w == Int8Weights::Unsigned8 ? "uint8" : "int8") << int8_weights_name(w);
    EXPECT_EQ(zp.type, q.type) << int8_weights_name(w);
    ASSERT_EQ(q.values.size(), 32u);
    ASSERT_EQ(zp.values.size(), 4u) << "one zero point per output column";
    // Every weight is 1 = the column's maximum: the top of the scheme's range.
    const int top = w == Int8Weights::Signed7 ? 64 : 127;
    for (int v : q.values) EXPECT_EQ(v - zp.values[0], top) << int8_weights_name(w);
    for (int z : zp.values) EXPECT_EQ(z, w == Int8Weights::Unsigned8 ? 128 : 0) << int8_weights_name(w);
  }
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
