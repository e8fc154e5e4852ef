// Pieces for building tiny ONNX graphs in tests (written with
// write_onnx_graph): seeded random float tensors and integer-list attributes.
#pragma once
#include <cstring>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge::test {

// A float tensor of shape `dims`, N(0, 1) values from `seed`, times `scale`.
inline OnnxTensor random_onnx_tensor(std::vector<int64_t> dims, uint64_t seed, float scale = 1.0f) {
  OnnxTensor t;
  t.dims = std::move(dims);
  torch::Generator g = at::detail::createCPUGenerator(seed);
  const torch::Tensor v = torch::randn({t.numel()}, g, torch::kFloat32) * scale;
  t.data.resize(static_cast<size_t>(t.numel()) * 4);
  std::memcpy(t.data.data(), v.data_ptr<float>(), t.data.size());
  return t;
}

inline OnnxAttribute ints_attribute(std::vector<int64_t> v) {
  OnnxAttribute a;
  a.kind = OnnxAttribute::Kind::Ints;
  a.ints = std::move(v);
  return a;
}

}  // namespace ocrforge::test
