// The exact fp32 graph simplification: on a tiny graph built like PP-LCNetV3
// (conv -> learnable affine -> five-op hard-swish -> affine -> conv), which
// ops each rule removes and which it must leave (a padded conv, a shared
// weight, a value that is also a graph output), and that ONNX Runtime
// computes the same outputs from both graphs; then the shipped PP-OCRv4
// models simplified, checked the same way on real inputs.
#include "ocrforge/onnx/onnx_simplify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/onnx/onnx_quantize.h"
#include "onnx/tiny_quant_graphs.h"
#include "test_support.h"

namespace ocrforge {
namespace {

RuntimeParams rt(bool ir_optim = false) {
  RuntimeParams r;
  r.cpu_threads = 1;
  r.ir_optim = ir_optim;
  return r;
}

std::vector<float> run(const std::string& model, const std::vector<float>& x, const std::vector<int64_t>& shape) {
  OrtModel m(model, rt(), "test", "test");
  EXPECT_FALSE(m.simplified());
  const TensorView out = m.run(x.data(), shape);
  return {out.data, out.data + out.numel()};
}

// max |a - b| over the outputs of the two files on the same input.
double max_difference(const std::string& a, const std::string& b, const std::vector<float>& x,
                      const std::vector<int64_t>& shape, double* scale = nullptr) {
  const std::vector<float> ya = run(a, x, shape), yb = run(b, x, shape);
  EXPECT_EQ(ya.size(), yb.size());
  double diff = 0, ref = 0;
  for (size_t i = 0; i < std::min(ya.size(), yb.size()); ++i) {
    diff = std::max(diff, static_cast<double>(std::fabs(ya[i] - yb[i])));
    ref = std::max(ref, static_cast<double>(std::fabs(ya[i])));
  }
  if (scale) *scale = ref;
  return diff;
}

using test::float_attr;
using test::float_tensor;
using test::ints_attr;
using test::node;
using test::random_tensor;

// The exporter's hard-swish: in -> Add(3) -> Clip(0, 6) -> Mul(in, .) -> Div(6)
// (or Mul(1/6) with `times_sixth`), opset 11 (Clip bounds as inputs) or 9.
void add_hardswish(OnnxGraph* g, const std::string& in, const std::string& out, bool times_sixth) {
  g->nodes.push_back(node("Add", {in, "three"}, out + "_p3"));
  if (g->opset >= 11) {
    g->nodes.push_back(node("Clip", {out + "_p3", "zero", "six"}, out + "_clip"));
  } else {
    OnnxNode clip = node("Clip", {out + "_p3"}, out + "_clip");
    clip.attrs["min"] = float_attr(0.f);
    clip.attrs["max"] = float_attr(6.f);
    g->nodes.push_back(clip);
  }
  g->nodes.push_back(node("Mul", {in, out + "_clip"}, out + "_mul"));
  g->nodes.push_back(node(times_sixth ? "Mul" : "Div", {out + "_mul", times_sixth ? "sixth" : "six"}, out));
}

// Scalar Mul (constant first, as the exporter writes it) then Add.
void add_affine(OnnxGraph* g, const std::string& in, const std::string& out, const std::string& s,
                const std::string& a) {
  g->nodes.push_back(node("Mul", {s, in}, out + "_scaled"));
  g->nodes.push_back(node("Add", {out + "_scaled", a}, out));
}

// x [N, 4, 12, 12]
//   -> conv a 3x3 pad 1 (4 -> 8) -> Mul(s1) -> Add(a1 per channel)   rule 1: 2 ops
//   -> hard-swish (Div 6)                                           rule 2
//   -> Mul(s2) -> Add(a2) -> conv pw 1x1 (8 -> 8, no bias)          rule 3: 2 ops
//   -> Mul(s3) -> Add(a3)                                           rule 1: 2 ops (bias made)
//   -> hard-swish (Mul 1/6)                                         rule 2
//   -> Mul(s4) -> Add(a4) -> conv dw 3x3 pad 1 (group 8) -> y        padded: rule 3 moves
//                                                                    s4 only (Add(a4 / s4))
std::string write_lcnet_like(const std::string& path, int64_t opset) {
  OnnxGraph g;
  g.opset = opset;
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.io_shapes = {{"x", {-1, 4, 12, 12}}, {"y", {-1, 8, 12, 12}}};
  g.constants["a.w"] = random_tensor({8, 4, 3, 3}, 1, 0.3f);
  g.constants["a.b"] = random_tensor({8}, 2, 0.1f);
  g.constants["pw.w"] = random_tensor({8, 8, 1, 1}, 3, 0.4f);
  g.constants["dw.w"] = random_tensor({8, 1, 3, 3}, 4, 0.4f);
  g.constants["dw.b"] = random_tensor({8}, 5, 0.1f);
  g.constants["three"] = float_tensor({}, {3.f});
  g.constants["six"] = float_tensor({}, {6.f});
  g.constants["zero"] = float_tensor({}, {0.f});
  g.constants["sixth"] = float_tensor({1}, {1.f / 6.f});
  const float scales[] = {0.9f, 1.3f, 0.7f, 1.6f}, shifts[] = {0.f, -0.4f, 0.25f, 0.5f};
  for (int i = 0; i < 4; ++i) {
    g.constants["s" + std::to_string(i + 1)] = float_tensor({1}, {scales[i]});
    g.constants["a" + std::to_string(i + 1)] = float_tensor({1}, {shifts[i]});
  }
  g.constants["a1"] = random_tensor({1, 8, 1, 1}, 6, 0.3f);  // per channel
  g.nodes.push_back(test::conv("x", "a.w", "a.b", "a", 3));
  add_affine(&g, "a", "a_aff", "s1", "a1");
  add_hardswish(&g, "a_aff", "a_act", false);
  add_affine(&g, "a_act", "pw_in", "s2", "a2");
  OnnxNode pw = node("Conv", {"pw_in", "pw.w"}, "pw");
  pw.attrs["kernel_shape"] = ints_attr({1, 1});
  g.nodes.push_back(pw);
  add_affine(&g, "pw", "pw_aff", "s3", "a3");
  add_hardswish(&g, "pw_aff", "pw_act", true);
  add_affine(&g, "pw_act", "dw_in", "s4", "a4");
  g.nodes.push_back(test::conv("dw_in", "dw.w", "dw.b", "y", 3, 8));
  write_onnx_graph(g, path);
  return path;
}

int count(const std::map<std::string, int>& ops, const std::string& op) {
  const auto it = ops.find(op);
  return it == ops.end() ? 0 : it->second;
}

class OnnxSimplifyOpsets : public ::testing::TestWithParam<int> {};

TEST_P(OnnxSimplifyOpsets, FoldsEachRuleAndOrtComputesTheSame) {
  const std::string dir = test::fresh_dir("onnx_simplify_" + std::to_string(GetParam()));
  const std::string src = write_lcnet_like(dir + "/src.onnx", GetParam());
  const SimplifyReport r = simplify_onnx_model(src, dir + "/simple.onnx");
  EXPECT_EQ(r.conv_affines, 4);
  EXPECT_EQ(r.hardswishes, 2);
  EXPECT_EQ(r.input_affines, 3);
  EXPECT_EQ(r.layout_shifts, 1);
  const auto ops = onnx_op_counts(dir + "/simple.onnx");
  EXPECT_EQ(count(ops, "Conv"), 4);  // the three convs + the padded conv's shift a4 / s4 as a 1x1 depthwise conv
  EXPECT_EQ(count(ops, "HardSigmoid"), 2);
  EXPECT_EQ(count(ops, "Clip"), 0);
  EXPECT_EQ(count(ops, "Div"), 0);
  EXPECT_EQ(count(ops, "Mul"), 2);  // the two hard-swish products
  EXPECT_EQ(count(ops, "Add"), 0);
  for (int n : {1, 3}) {
    double scale = 0;
    const double diff = max_difference(src, dir + "/simple.onnx", test::gaussian(static_cast<size_t>(n) * 4 * 144, 40 + n, 2.f),
                                       {n, 4, 12, 12}, &scale);
    std::printf("batch %d: max |simplified - original| = %.3g (outputs up to %.3g)\n", n, diff, scale);
    EXPECT_GT(scale, 0.5);
    EXPECT_LE(diff, 1e-5 * scale);
  }
}

INSTANTIATE_TEST_SUITE_P(ClipForms, OnnxSimplifyOpsets, ::testing::Values(9, 11));

// What must stay: a weight two convs share, a conv output that is also a
// graph output, and an affine that a graph output reads besides a conv.
TEST(OnnxSimplify, LeavesSharedWeightsGraphOutputsAndPaddedConvsAlone) {
  const std::string dir = test::fresh_dir("onnx_simplify_keep");
  OnnxGraph g;
  g.opset = 11;
  g.inputs = {"x"};
  g.outputs = {"y1", "raw", "aff", "y2"};
  g.io_shapes = {{"x", {-1, 4, 6, 6}}, {"y1", {-1, 4, 6, 6}}, {"raw", {-1, 4, 6, 6}}, {"aff", {-1, 4, 6, 6}},
                 {"y2", {-1, 4, 6, 6}}};
  g.constants["w"] = random_tensor({4, 4, 1, 1}, 7, 0.5f);
  g.constants["w2"] = random_tensor({4, 4, 3, 3}, 8, 0.3f);
  g.constants["s"] = float_tensor({1}, {1.5f});
  g.constants["a"] = float_tensor({1}, {0.5f});
  OnnxNode c1 = node("Conv", {"x", "w"}, "c1");
  OnnxNode c2 = node("Conv", {"x", "w"}, "raw");  // the same weight
  g.nodes.push_back(c1);
  g.nodes.push_back(c2);
  g.nodes.push_back(node("Mul", {"c1", "s"}, "y1"));  // c1's weight is shared: not folded
  add_affine(&g, "raw", "aff", "s", "a");           // raw and aff are graph outputs: not folded
  OnnxNode padded = test::conv("aff", "w2", "", "y2", 3);
  padded.inputs.pop_back();
  g.nodes.push_back(padded);
  const std::string src = dir + "/src.onnx";
  write_onnx_graph(g, src);
  const SimplifyReport r = simplify_onnx_model(src, dir + "/simple.onnx");
  EXPECT_EQ(r.changes(), 0);
  EXPECT_EQ(r.nodes_after, r.nodes_before);
  EXPECT_EQ(onnx_op_counts(src), onnx_op_counts(dir + "/simple.onnx"));
}

TEST(OnnxSimplify, BytesThatAreNotAModelAreAnErrorNamingThem) {
  try {
    simplify_onnx_bytes("definitely not protobuf \x01\x02", "photo.jpg");
    ADD_FAILURE() << "garbage simplified";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'photo.jpg' is not an ONNX model"), std::string::npos) << e.what();
  }
}

// The shipped PP-OCRv4 det / rec / cls: every rule applies, and ORT on the
// simplified graph gives what it gives on the file (probabilities to 1e-4).
TEST(OnnxSimplify, ShippedModelsKeepTheirOutputs) {
  const std::string dir = test::fresh_dir("onnx_simplify_shipped");
  struct Case {
    const char* role;
    std::vector<int64_t> shape;
  };
  for (const Case& c : {Case{"det", {1, 3, 320, 256}}, Case{"rec", {2, 3, 48, 320}}, Case{"cls", {2, 3, 48, 192}}}) {
    const std::string src = test::model_root() + "/" + c.role + "/inference.onnx";
    ASSERT_TRUE(std::filesystem::exists(src)) << src << ": run scripts/bootstrap.sh";
    const std::string dst = dir + "/" + c.role + ".onnx";
    const SimplifyReport r = simplify_onnx_model(src, dst);
    std::printf("%s: %d conv affines, %d hard-swishes, %d input affines, %d layout shifts; %d -> %d nodes\n", c.role,
                r.conv_affines, r.hardswishes, r.input_affines, r.layout_shifts, r.nodes_before, r.nodes_after);
    if (std::string(c.role) != "cls") {  // the classifier (PP-LCNet v1) has no affine blocks
      EXPECT_GT(r.conv_affines, 20) << c.role;
      EXPECT_GT(r.input_affines, 5) << c.role;
      EXPECT_GT(r.layout_shifts, 5) << c.role;
    }
    EXPECT_GT(r.hardswishes, 5) << c.role;
    int64_t n = 1;
    for (auto d : c.shape) n *= d;
    // Inputs as the predictors make them: normalised pixels, roughly [-1, 1].
    std::vector<float> x = test::gaussian(static_cast<size_t>(n), 9, 0.5f);
    for (auto& v : x) v = std::clamp(v, -1.f, 1.f);
    const double diff = max_difference(src, dst, x, c.shape);
    std::printf("%s: max |simplified - file| = %.3g\n", c.role, diff);
    EXPECT_LE(diff, 1e-4) << c.role;
    // OrtModel loads the simplified form by default, the file with ir_optim off.
    EXPECT_TRUE(OrtModel(src, rt(true), c.role, "test").simplified()) << c.role;
    EXPECT_FALSE(OrtModel(src, rt(false), c.role, "test").simplified()) << c.role;
  }
}

}  // namespace
}  // namespace ocrforge
