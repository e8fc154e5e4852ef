// ONNX writers and checker (onnx_writer.h).
#include "ocrforge/onnx/onnx_writer.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <filesystem>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_model_file.h"

namespace ocrforge {

namespace {

int32_t onnx_type(OnnxType t) {
  switch (t) {
    case OnnxType::Float: return onnx::TensorProto::FLOAT;
    case OnnxType::Double: return onnx::TensorProto::DOUBLE;
    case OnnxType::Int64: return onnx::TensorProto::INT64;
    case OnnxType::Int32: return onnx::TensorProto::INT32;
    case OnnxType::Bool: return onnx::TensorProto::BOOL;
  }
  return onnx::TensorProto::UNDEFINED;
}

// `t` as a TensorProto named `name`, the data as raw little-endian bytes
// (what paddle2onnx and torch.onnx write; x86 and ARM are little-endian).
void fill_tensor(const OnnxTensor& t, const std::string& name, onnx::TensorProto* out) {
  out->Clear();
  out->set_name(name);
  out->set_data_type(onnx_type(t.type));
  for (int64_t d : t.dims) out->add_dims(d);
  out->set_raw_data(std::string(t.data.begin(), t.data.end()));
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// Replaces `proto` by `t` after checking that type and shape agree.
void replace_tensor(onnx::TensorProto* proto, const OnnxTensor& t, const std::string& name, const std::string& src) {
  const std::vector<int64_t> dims(proto->dims().begin(), proto->dims().end());
  if (proto->data_type() != onnx_type(t.type) || dims != t.dims)
    throw Error("'" + src + "': new value for '" + name + "' has shape " + shape_text(t.dims) +
                " where the model holds " + shape_text(dims) + " (or another element type)");
  if (static_cast<size_t>(t.numel()) * onnx_type_size(t.type) != t.data.size())
    throw Error("new value for '" + name + "' holds " + std::to_string(t.data.size()) + " bytes; its shape needs " +
                std::to_string(t.numel() * static_cast<int64_t>(onnx_type_size(t.type))));
  const std::string original_name = proto->name();  // kept: a Constant's tensor is often unnamed
  fill_tensor(t, original_name, proto);
}

// core's atomic write (temp file + rename): a crash never leaves a half model.
void save_atomically(const onnx::ModelProto& model, const std::string& dst) {
  const std::filesystem::path target(dst);
  if (target.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw Error("cannot serialise the model for '" + dst + "'");
  write_file_atomic(dst, bytes);
}

// A float graph input / output; `shape` (-1: dynamic, named d0, d1, ...) when known.
void set_float_value_info(onnx::ValueInfoProto* vi, const std::string& name, const OnnxGraph& g) {
  vi->set_name(name);
  auto* tensor = vi->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto::FLOAT);
  const auto it = g.io_shapes.find(name);
  if (it == g.io_shapes.end()) return;
  auto* shape = tensor->mutable_shape();
  for (size_t i = 0; i < it->second.size(); ++i) {
    auto* dim = shape->add_dim();
    if (it->second[i] >= 0)
      dim->set_dim_value(it->second[i]);
    else
      dim->set_dim_param(name + "_d" + std::to_string(i));
  }
}

}  // namespace

void write_onnx_with_constants(const std::string& src, const std::string& dst,
                               const std::map<std::string, OnnxTensor>& values) {
  onnx::ModelProto model = onnx_file::load(src);
  std::map<std::string, bool> done;
  for (const auto& [name, t] : values) done[name] = false;
  auto* graph = model.mutable_graph();
  for (auto& init : *graph->mutable_initializer()) {
    const auto it = values.find(init.name());
    if (it == values.end()) continue;
    replace_tensor(&init, it->second, it->first, src);
    done[it->first] = true;
  }
  for (auto& node : *graph->mutable_node()) {
    if (node.op_type() != "Constant" || node.output_size() != 1) continue;
    const auto it = values.find(node.output(0));
    if (it == values.end()) continue;
    for (auto& a : *node.mutable_attribute())
      if (a.name() == "value" && a.type() == onnx::AttributeProto::TENSOR) {
        replace_tensor(a.mutable_t(), it->second, it->first, src);
        done[it->first] = true;
      }
  }
  for (const auto& [name, found] : done)
    if (!found) throw Error("'" + src + "' has no constant '" + name + "' to replace; was the model changed?");
  save_atomically(model, dst);
}

void write_onnx_graph(const OnnxGraph& g, const std::string& dst) {
  onnx::ModelProto model;
  const int64_t opset_version = g.opset > 0 ? g.opset : 11;
  // The IR version that came with the opset (ONNX 1.10 brought IR 8 and opset 15).
  model.set_ir_version(opset_version >= 15 ? 8 : 7);
  model.set_producer_name("ocrforge");
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(opset_version);
  auto* graph = model.mutable_graph();
  graph->set_name("ocrforge");
  for (const auto& in : g.inputs) set_float_value_info(graph->add_input(), in, g);
  for (const auto& out : g.outputs) set_float_value_info(graph->add_output(), out, g);
  for (const auto& [name, t] : g.constants) fill_tensor(t, name, graph->add_initializer());
  for (const auto& n : g.nodes) {
    auto* node = graph->add_node();
    node->set_op_type(n.op);
    if (!n.name.empty()) node->set_name(n.name);
    for (const auto& v : n.inputs) node->add_input(v);
    for (const auto& v : n.outputs) node->add_output(v);
    for (const auto& [name, a] : n.attrs) {
      auto* attr = node->add_attribute();
      attr->set_name(name);
      switch (a.kind) {
        case OnnxAttribute::Kind::Int: attr->set_type(onnx::AttributeProto::INT); attr->set_i(a.i); break;
        case OnnxAttribute::Kind::Float: attr->set_type(onnx::AttributeProto::FLOAT); attr->set_f(a.f); break;
        case OnnxAttribute::Kind::String: attr->set_type(onnx::AttributeProto::STRING); attr->set_s(a.s); break;
        case OnnxAttribute::Kind::Ints:
          attr->set_type(onnx::AttributeProto::INTS);
          for (int64_t v : a.ints) attr->add_ints(v);
          break;
        case OnnxAttribute::Kind::Floats:
          attr->set_type(onnx::AttributeProto::FLOATS);
          for (float v : a.floats) attr->add_floats(v);
          break;
        case OnnxAttribute::Kind::Tensor:
          attr->set_type(onnx::AttributeProto::TENSOR);
          fill_tensor(a.t, "", attr->mutable_t());
          break;
        case OnnxAttribute::Kind::Other:
          throw Error("cannot write ONNX node " + n.label() + ": attribute '" + name + "' has a kind the writer does not know");
      }
    }
  }
  save_atomically(model, dst);
}

void check_onnx_model(const std::string& path) {
  onnx::ModelProto model = onnx_file::load(path);
  try {
    onnx::checker::check_model(model);
    onnx::ShapeInferenceOptions options{true, 1, false};
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    throw Error("'" + path + "' fails the ONNX checker: " + e.what());
  }
}

}  // namespace ocrforge
