// Tiny float graphs for the int8 quantiser tests, written with the onnx
// layer's writer (no torch): seeded pseudo-random weights and inputs.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/onnx/onnx_writer.h"

namespace ocrforge::test {

// Gaussian values from a fixed seed (splitmix64 + Box-Muller): the same on every machine.
inline std::vector<float> gaussian(size_t n, uint64_t seed, float scale = 1.f) {
  auto next = [&seed]() {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  };
  std::vector<float> v(n);
  for (auto& x : v) {
    const double u = std::max(next(), 1e-12), w = next();
    x = static_cast<float>(std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * w)) * scale;
  }
  return v;
}

inline OnnxTensor float_tensor(std::vector<int64_t> dims, const std::vector<float>& v) {
  OnnxTensor t;
  t.dims = std::move(dims);
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

inline OnnxTensor random_tensor(std::vector<int64_t> dims, uint64_t seed, float scale) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return float_tensor(std::move(dims), gaussian(static_cast<size_t>(n), seed, scale));
}

inline OnnxTensor int64_tensor(const std::vector<int64_t>& v) {
  OnnxTensor t;
  t.type = OnnxType::Int64;
  t.dims = {static_cast<int64_t>(v.size())};
  t.data.resize(v.size() * 8);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

inline OnnxAttribute int_attr(int64_t v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Int;
  a.i = v;
  return a;
}

inline OnnxAttribute ints_attr(std::vector<int64_t> v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Ints;
  a.ints = std::move(v);
  return a;
}

inline OnnxAttribute float_attr(float v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Float;
  a.f = v;
  return a;
}

inline OnnxNode node(const std::string& op, std::vector<std::string> in, const std::string& out) {
  OnnxNode n;
  n.op = op;
  n.name = out + "_node";
  n.inputs = std::move(in);
  n.outputs = {out};
  return n;
}

inline OnnxNode conv(const std::string& in, const std::string& w, const std::string& b, const std::string& out,
                     int64_t k, int64_t group = 1) {
  OnnxNode n = node("Conv", {in, w, b}, out);
  n.attrs["kernel_shape"] = ints_attr({k, k});
  n.attrs["pads"] = ints_attr({k / 2, k / 2, k / 2, k / 2});
  if (group != 1) n.attrs["group"] = int_attr(group);
  return n;
}

// x [N, 4, 12, 12]
//   -> conv_a 3x3 4->8 (reads the input) -> Relu
//   -> conv_b 1x1 8->8 (weight in a Constant node, as paddle2onnx writes) -> Clip [0, 6]
//   -> conv_dw 3x3 depthwise (group 8)
//   -> conv_c 3x3 8->6 -> GlobalAveragePool -> Reshape [-1, 6]
//   -> MatMul [6, 10] -> Relu -> Gemm transB (B [5, 10], C [5]) -> y [N, 5]
// Opset 11 (Clip bounds as inputs), or 9 (Clip bounds as attributes, plus a
// Slice with attributes on the way, as the shipped rec model has them).
inline std::string write_tiny_quant_graph(const std::string& path, int64_t opset = 11) {
  OnnxGraph g;
  g.opset = opset;
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.io_shapes = {{"x", {-1, 4, 12, 12}}, {"y", {-1, 5}}};
  g.constants["a.w"] = random_tensor({8, 4, 3, 3}, 1, 0.3f);
  g.constants["a.b"] = random_tensor({8}, 2, 0.1f);
  g.constants["b.b"] = random_tensor({8}, 4, 0.1f);
  g.constants["dw.w"] = random_tensor({8, 1, 3, 3}, 5, 0.4f);
  g.constants["dw.b"] = random_tensor({8}, 6, 0.1f);
  g.constants["c.w"] = random_tensor({6, 8, 3, 3}, 7, 0.2f);
  g.constants["c.b"] = random_tensor({6}, 8, 0.1f);
  g.constants["fc.w"] = random_tensor({6, 10}, 9, 0.5f);
  g.constants["gemm.w"] = random_tensor({5, 10}, 10, 0.5f);
  g.constants["gemm.b"] = random_tensor({5}, 11, 0.1f);
  g.constants["shape"] = int64_tensor({-1, 6});
  OnnxNode bw = node("Constant", {}, "b.w");
  bw.attrs["value"].kind = OnnxAttribute::Kind::Tensor;
  bw.attrs["value"].t = random_tensor({8, 8, 1, 1}, 3, 0.4f);
  g.nodes.push_back(bw);
  g.nodes.push_back(conv("x", "a.w", "a.b", "a", 3));
  g.nodes.push_back(node("Relu", {"a"}, "a_relu"));
  g.nodes.push_back(conv("a_relu", "b.w", "b.b", "b", 1));
  if (opset >= 11) {
    g.constants["clip.min"] = float_tensor({}, {0.f});
    g.constants["clip.max"] = float_tensor({}, {6.f});
    g.nodes.push_back(node("Clip", {"b", "clip.min", "clip.max"}, "b_clip"));
    g.nodes.push_back(conv("b_clip", "dw.w", "dw.b", "dw", 3, 8));
  } else {
    OnnxNode clip = node("Clip", {"b"}, "b_clip");
    clip.attrs["min"] = float_attr(0.f);
    clip.attrs["max"] = float_attr(6.f);
    g.nodes.push_back(clip);
    // Slice with opset-1 attributes: all 8 channels kept (ends past the end).
    OnnxNode slice = node("Slice", {"b_clip"}, "b_slice");
    slice.attrs["starts"] = ints_attr({0});
    slice.attrs["ends"] = ints_attr({100});
    slice.attrs["axes"] = ints_attr({1});
    g.nodes.push_back(slice);
    g.nodes.push_back(conv("b_slice", "dw.w", "dw.b", "dw", 3, 8));
  }
  g.nodes.push_back(conv("dw", "c.w", "c.b", "c", 3));
  g.nodes.push_back(node("GlobalAveragePool", {"c"}, "pool"));
  g.nodes.push_back(node("Reshape", {"pool", "shape"}, "flat"));
  g.nodes.push_back(node("MatMul", {"flat", "fc.w"}, "fc"));
  g.nodes.push_back(node("Relu", {"fc"}, "fc_relu"));
  OnnxNode gemm = node("Gemm", {"fc_relu", "gemm.w", "gemm.b"}, "y");
  gemm.attrs["transB"] = int_attr(1);
  g.nodes.push_back(gemm);
  write_onnx_graph(g, path);
  return path;
}

// x [N, 4, 12, 12] -> conv 3x3 4->8 -> `n` x (conv 1x1 8->8 -> Relu)
//   -> GlobalAveragePool -> Reshape [-1, 8] -> MatMul [8, 5] -> y [N, 5].
// Deep enough that int8 rules keeping the first few convs fp32 (det, rec)
// still quantise some.
inline std::string write_conv_chain_graph(const std::string& path, int n = 12) {
  OnnxGraph g;
  g.opset = 11;
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.io_shapes = {{"x", {-1, 4, 12, 12}}, {"y", {-1, 5}}};
  g.constants["first.w"] = random_tensor({8, 4, 3, 3}, 100, 0.3f);
  g.constants["first.b"] = random_tensor({8}, 101, 0.1f);
  g.nodes.push_back(conv("x", "first.w", "first.b", "h0", 3));
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    g.constants["pw" + k + ".w"] = random_tensor({8, 8, 1, 1}, 200 + i, 0.45f);
    g.constants["pw" + k + ".b"] = random_tensor({8}, 300 + i, 0.1f);
    g.nodes.push_back(conv("h" + k, "pw" + k + ".w", "pw" + k + ".b", "c" + k, 1));
    g.nodes.push_back(node("Relu", {"c" + k}, "h" + std::to_string(i + 1)));
  }
  g.constants["shape"] = int64_tensor({-1, 8});
  g.constants["fc.w"] = random_tensor({8, 5}, 400, 0.5f);
  g.nodes.push_back(node("GlobalAveragePool", {"h" + std::to_string(n)}, "pool"));
  g.nodes.push_back(node("Reshape", {"pool", "shape"}, "flat"));
  g.nodes.push_back(node("MatMul", {"flat", "fc.w"}, "y"));
  write_onnx_graph(g, path);
  return path;
}

// Graphs whose int8 products are the largest the encodings allow, to see
// which CPUs saturate them: every weight 1, so an all-ones input quantises
// to uint8 255 and the weights to the top of their range.
//   conv:   x [1, 8, 2, 2] -> Conv 1x1 8->4 -> y [1, 4, 2, 2]  (y = 8 everywhere)
//   matmul: x [1, 8] -> MatMul [8, 4] -> y [1, 4]               (y = 8 everywhere)
inline std::string write_all_ones_graph(const std::string& path, bool conv_graph) {
  OnnxGraph g;
  g.opset = 11;
  g.inputs = {"x"};
  g.outputs = {"y"};
  if (conv_graph) {
    g.io_shapes = {{"x", {1, 8, 2, 2}}, {"y", {1, 4, 2, 2}}};
    g.constants["w"] = float_tensor({4, 8, 1, 1}, std::vector<float>(32, 1.f));
    g.constants["b"] = float_tensor({4}, std::vector<float>(4, 0.f));
    g.nodes.push_back(conv("x", "w", "b", "y", 1));
  } else {
    g.io_shapes = {{"x", {1, 8}}, {"y", {1, 4}}};
    g.constants["w"] = float_tensor({8, 4}, std::vector<float>(32, 1.f));
    g.nodes.push_back(node("MatMul", {"x", "w"}, "y"));
  }
  write_onnx_graph(g, path);
  return path;
}

}  // namespace ocrforge::test
