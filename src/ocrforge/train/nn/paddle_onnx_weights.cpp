#include "ocrforge/train/nn/paddle_onnx_weights.h"

#include <cstring>
#include <map>
#include <set>

#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {
std::string shape_text(at::IntArrayRef s) { return c10::str(s); }

std::vector<int64_t> squeezed(at::IntArrayRef s) {
  std::vector<int64_t> out;
  for (int64_t d : s)
    if (d != 1) out.push_back(d);
  return out;
}
}  // namespace

std::vector<OnnxWeight> paddle_onnx_weights_in_use_order(const OnnxGraph& graph) {
  std::vector<OnnxWeight> out;
  std::set<std::string> seen;
  for (const auto& node : graph.nodes) {
    if (node.op == "Cast") continue;
    for (const auto& in : node.inputs) {
      const auto it = graph.constants.find(in);
      if (it == graph.constants.end() || in.rfind("p2o.", 0) == 0 || !seen.insert(in).second) continue;
      const OnnxTensor& t = it->second;
      if (t.type != OnnxType::Float) continue;  // shapes and indices, not weights
      torch::Tensor v = torch::empty(t.dims, torch::kFloat32);
      if (!t.data.empty()) std::memcpy(v.data_ptr(), t.data.data(), t.data.size());
      out.push_back({in, v});
    }
  }
  return out;
}

void load_weights_in_order(torch::nn::Module& model, const std::vector<std::string>& names,
                           const std::vector<OnnxWeight>& weights, const std::string& file,
                           const std::set<std::string>& transposed) {
  std::map<std::string, torch::Tensor> native;
  for (const auto& kv : model.named_parameters()) native[kv.key()] = kv.value();
  for (const auto& kv : model.named_buffers()) native[kv.key()] = kv.value();
  if (names.size() != weights.size())
    throw Error(file + ": holds " + std::to_string(weights.size()) + " weights, the native network takes " +
                std::to_string(names.size()) + " from it: not the network the config builds (check Backbone.scale, "
                "Neck.out_channels and the model type)");
  std::vector<torch::Tensor> targets, sources;
  for (size_t i = 0; i < names.size(); ++i) {
    const auto it = native.find(names[i]);
    if (it == native.end()) throw Error("loading " + file + ": the native network has no tensor '" + names[i] + "'");
    const torch::Tensor& dst = it->second;
    torch::Tensor src = weights[i].value;
    if (transposed.count(names[i]) && src.dim() == 2) src = src.t();
    if (dst.numel() != src.numel() || squeezed(dst.sizes()) != squeezed(src.sizes()))
      throw Error(file + ": weight #" + std::to_string(i) + " '" + weights[i].name + "' has shape " +
                  shape_text(src.sizes()) + " where the native '" + names[i] + "' is " + shape_text(dst.sizes()) +
                  ": not the network the config builds");
    targets.push_back(dst);
    sources.push_back(src);
  }
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < targets.size(); ++i)
    targets[i].copy_(sources[i].reshape(targets[i].sizes()).to(targets[i].dtype()));
}

}  // namespace ocrforge
