// ONNX graph -> trainable module (onnx_graph_module.h).
#include "ocrforge/train/onnx/onnx_graph_module.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/onnx/onnx_ops.h"

namespace ocrforge {

namespace {

// Is input `slot` of `node` an operand whose value a fine-tune should learn?
bool weight_slot(const OnnxNode& node, size_t slot) {
  const std::string& op = node.op;
  if (op == "Conv" || op == "ConvTranspose") return slot == 1 || slot == 2;
  if (op == "BatchNormalization") return slot == 1 || slot == 2;  // scale, bias; not mean / var
  return op == "MatMul" || op == "Add" || op == "Sub" || op == "Mul" || op == "Div";
}

torch::Dtype torch_dtype(OnnxType type) {
  static const std::map<OnnxType, torch::Dtype> types = {{OnnxType::Float, torch::kFloat32},
                                                         {OnnxType::Double, torch::kFloat64},
                                                         {OnnxType::Int64, torch::kInt64},
                                                         {OnnxType::Int32, torch::kInt32},
                                                         {OnnxType::Bool, torch::kBool}};
  return types.at(type);
}

torch::Tensor to_torch(const OnnxTensor& t) {
  torch::Tensor out = torch::empty(t.dims, torch::TensorOptions().dtype(torch_dtype(t.type)));
  if (!t.data.empty()) std::memcpy(out.data_ptr(), t.data.data(), t.data.size());
  return out;
}

std::string tensor_name(const std::string& value, std::set<std::string>* used) {
  std::string n = value;
  for (char& c : n)
    if (c == '.' || c == '/' || c == ':') c = '_';
  if (n.empty()) n = "_";
  std::string unique = n;
  for (int k = 1; !used->insert(unique).second; ++k) unique = n + "_" + std::to_string(k);
  return unique;
}

// Training-mode batch norm: normalises with the batch's statistics and
// updates the running mean / variance buffers in place. ONNX's momentum
// weighs the old value (running = running * m + batch * (1 - m)); LibTorch's
// weighs the new one, hence 1 - m.
torch::Tensor batch_norm_with_batch_statistics(const OnnxNode& n, const std::vector<torch::Tensor>& in) {
  const auto attr = [&](const char* key, float fallback) {
    const auto it = n.attrs.find(key);
    return it == n.attrs.end() ? fallback : it->second.f;
  };
  return torch::batch_norm(in.at(0), in.at(1), in.at(2), in.at(3), in.at(4), /*training=*/true,
                           1.0 - attr("momentum", 0.9f), attr("epsilon", 1e-5f), /*cudnn_enabled=*/true);
}

OnnxTensor to_onnx_tensor(const torch::Tensor& value, OnnxType type) {
  const torch::Tensor c = value.detach().to(torch::kCPU, torch_dtype(type)).contiguous();
  OnnxTensor t;
  t.type = type;
  t.dims = c.sizes().vec();
  const auto* p = static_cast<const unsigned char*>(c.data_ptr());
  t.data.assign(p, p + c.numel() * static_cast<int64_t>(c.element_size()));
  return t;
}

}  // namespace

OnnxGraphModuleImpl::OnnxGraphModuleImpl(const std::string& path) : graph_(read_onnx_graph(path)) {
  for (const auto& n : graph_.nodes) {
    try {
      require_supported_onnx_op(n);
    } catch (const Error& e) {
      throw Error("'" + path + "': " + e.what());
    }
  }
  if (graph_.outputs.empty()) throw Error("'" + path + "' declares no graph output");

  // A constant is a weight when it is a float tensor of > 1 element and all its uses are weight slots.
  std::map<std::string, bool> all_weight_uses;
  for (const auto& n : graph_.nodes)
    for (size_t s = 0; s < n.inputs.size(); ++s)
      if (graph_.constants.count(n.inputs[s])) {
        auto [it, fresh] = all_weight_uses.emplace(n.inputs[s], true);
        it->second = it->second && weight_slot(n, s);
      }
  std::set<std::string> used;
  for (const auto& [value, t] : graph_.constants) {
    const auto u = all_weight_uses.find(value);
    if (u == all_weight_uses.end()) continue;  // never read (e.g. a dead Constant)
    const bool learn = u->second && t.type == OnnxType::Float && t.numel() > 1;
    const std::string name = tensor_name(value, &used);
    names_[value] = name;
    types_[value] = t.type;
    fixed_[value] = learn ? register_parameter(name, to_torch(t)) : register_buffer(name, to_torch(t));
  }

  // Release plan: after node i, drop the values whose last reader is node i.
  // (The raw constants are freed afterwards: the parameters and buffers hold them now.)
  std::map<std::string, size_t> last_read;
  for (size_t i = 0; i < graph_.nodes.size(); ++i)
    for (const auto& v : graph_.nodes[i].inputs)
      if (!v.empty() && !graph_.constants.count(v)) last_read[v] = i;
  release_after_.assign(graph_.nodes.size(), {});
  for (const auto& [v, i] : last_read) release_after_[i].push_back(v);
  graph_.constants.clear();
}

torch::Tensor OnnxGraphModuleImpl::constant(const std::string& value) const {
  const auto it = fixed_.find(value);
  return it == fixed_.end() ? torch::Tensor() : it->second;
}

torch::Tensor OnnxGraphModuleImpl::forward(const torch::Tensor& x, const std::string& output) {
  const std::string want = output.empty() ? graph_output() : output;
  std::map<std::string, torch::Tensor> values{{graph_.inputs[0], x}};
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    const OnnxNode& n = graph_.nodes[i];
    std::vector<torch::Tensor> in;
    in.reserve(n.inputs.size());
    for (const auto& v : n.inputs) {
      if (v.empty()) { in.emplace_back(); continue; }
      const auto it = values.find(v);
      if (it != values.end()) { in.push_back(it->second); continue; }
      torch::Tensor c = constant(v);
      if (!c.defined()) throw Error("'" + path() + "': ONNX node " + n.label() + " reads '" + v + "', which nothing produces");
      in.push_back(c);
    }
    std::vector<torch::Tensor> out = update_bn_stats_ && is_training() && n.op == "BatchNormalization"
                                         ? std::vector<torch::Tensor>{batch_norm_with_batch_statistics(n, in)}
                                         : run_onnx_op(n, in);
    for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k) {
      if (n.outputs[k] == want) return out[k];
      values[n.outputs[k]] = std::move(out[k]);
    }
    for (const auto& v : release_after_[i]) values.erase(v);
  }
  const auto it = values.find(want);
  if (it == values.end()) throw Error("'" + path() + "': no node produces '" + want + "'");
  return it->second;
}

std::map<std::string, OnnxTensor> OnnxGraphModuleImpl::constant_values() const {
  std::map<std::string, OnnxTensor> out;
  for (const auto& [value, tensor] : fixed_) out[value] = to_onnx_tensor(tensor, types_.at(value));
  return out;
}

void OnnxGraphModuleImpl::save_onnx(const std::string& dst) const {
  write_onnx_with_constants(path(), dst, constant_values());
}

std::string OnnxGraphModuleImpl::pre_activation_output() const {
  for (const auto& n : graph_.nodes)
    if (!n.outputs.empty() && n.outputs[0] == graph_output() && (n.op == "Softmax" || n.op == "Sigmoid"))
      return n.inputs.at(0);
  return "";
}

}  // namespace ocrforge
