// ONNX protobuf -> OnnxGraph (onnx_graph.h).
#include "ocrforge/onnx/onnx_graph.h"

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_model_file.h"

namespace ocrforge {

namespace {

OnnxType type_of(int32_t onnx_type, const std::string& what) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT: return OnnxType::Float;
    case onnx::TensorProto::DOUBLE: return OnnxType::Double;
    case onnx::TensorProto::INT64: return OnnxType::Int64;
    case onnx::TensorProto::INT32: return OnnxType::Int32;
    case onnx::TensorProto::BOOL: return OnnxType::Bool;
    default: throw Error(what + ": tensor element type " + std::to_string(onnx_type) + " is not supported");
  }
}

// The typed repeated fields (float_data, int64_data, ...) as bytes of type T.
template <typename T, typename Field>
void append_as(const Field& field, std::vector<unsigned char>* out) {
  for (const auto& v : field) {
    const T x = static_cast<T>(v);
    const auto* p = reinterpret_cast<const unsigned char*>(&x);
    out->insert(out->end(), p, p + sizeof(T));
  }
}

OnnxTensor to_tensor(const onnx::TensorProto& t, const std::string& what) {
  OnnxTensor out;
  out.type = type_of(t.data_type(), what);
  out.dims.assign(t.dims().begin(), t.dims().end());
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    throw Error(what + ": tensors stored outside the .onnx file are not supported");
  if (!t.raw_data().empty()) {
    out.data.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    switch (out.type) {
      case OnnxType::Float: append_as<float>(t.float_data(), &out.data); break;
      case OnnxType::Double: append_as<double>(t.double_data(), &out.data); break;
      case OnnxType::Int64: append_as<int64_t>(t.int64_data(), &out.data); break;
      case OnnxType::Int32: append_as<int32_t>(t.int32_data(), &out.data); break;
      case OnnxType::Bool: append_as<bool>(t.int32_data(), &out.data); break;
    }
  }
  const size_t expected = static_cast<size_t>(out.numel()) * onnx_type_size(out.type);
  if (out.data.size() != expected)
    throw Error(what + ": holds " + std::to_string(out.data.size()) + " bytes where its shape needs " +
                std::to_string(expected));
  return out;
}

OnnxAttribute to_attribute(const onnx::AttributeProto& a, const std::string& what) {
  OnnxAttribute out;
  switch (a.type()) {
    case onnx::AttributeProto::INT: out.kind = OnnxAttribute::Kind::Int; out.i = a.i(); break;
    case onnx::AttributeProto::FLOAT: out.kind = OnnxAttribute::Kind::Float; out.f = a.f(); break;
    case onnx::AttributeProto::STRING: out.kind = OnnxAttribute::Kind::String; out.s = a.s(); break;
    case onnx::AttributeProto::INTS:
      out.kind = OnnxAttribute::Kind::Ints;
      out.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case onnx::AttributeProto::FLOATS:
      out.kind = OnnxAttribute::Kind::Floats;
      out.floats.assign(a.floats().begin(), a.floats().end());
      break;
    case onnx::AttributeProto::TENSOR:
      out.kind = OnnxAttribute::Kind::Tensor;
      out.t = to_tensor(a.t(), what + " attribute '" + a.name() + "'");
      break;
    default: break;  // graphs, sparse tensors: no op we run uses them
  }
  return out;
}

}  // namespace

size_t onnx_type_size(OnnxType t) {
  switch (t) {
    case OnnxType::Float: return 4;
    case OnnxType::Double: return 8;
    case OnnxType::Int64: return 8;
    case OnnxType::Int32: return 4;
    case OnnxType::Bool: return 1;
  }
  return 0;
}

int64_t OnnxTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string OnnxNode::label() const {
  if (!name.empty()) return op + " '" + name + "'";
  return op + " producing '" + (outputs.empty() ? std::string("?") : outputs[0]) + "'";
}

OnnxGraph read_onnx_graph(const std::string& path) {
  const onnx::ModelProto model = onnx_file::load(path);
  OnnxGraph g;
  g.path = path;
  for (const auto& op : model.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") g.opset = op.version();
  for (const auto& init : model.graph().initializer())
    g.constants[init.name()] = to_tensor(init, "'" + path + "' initializer '" + init.name() + "'");
  auto read_shape = [&](const onnx::ValueInfoProto& vi) {
    if (!vi.type().tensor_type().has_shape()) return;
    std::vector<int64_t>& dims = g.io_shapes[vi.name()];
    for (const auto& d : vi.type().tensor_type().shape().dim()) dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
  };
  for (const auto& vi : model.graph().input())
    if (!g.constants.count(vi.name())) {
      g.inputs.push_back(vi.name());
      read_shape(vi);
    }
  for (const auto& vi : model.graph().output()) {
    g.outputs.push_back(vi.name());
    read_shape(vi);
  }
  for (const auto& n : model.graph().node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx")
      throw Error("'" + path + "': node '" + n.name() + "' uses operator domain '" + n.domain() +
                  "'; only the default ONNX domain is supported");
    OnnxNode node;
    node.op = n.op_type();
    node.name = n.name();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    const std::string what = "'" + path + "' " + node.label();
    for (const auto& a : n.attribute()) node.attrs[a.name()] = to_attribute(a, what);
    if (node.op == "Constant") {
      const auto it = node.attrs.find("value");
      if (it == node.attrs.end() || it->second.kind != OnnxAttribute::Kind::Tensor || node.outputs.size() != 1)
        throw Error(what + ": only Constant nodes with a 'value' tensor are supported");
      g.constants[node.outputs[0]] = it->second.t;
      continue;
    }
    g.nodes.push_back(std::move(node));
  }
  if (g.inputs.size() != 1)
    throw Error("'" + path + "' has " + std::to_string(g.inputs.size()) + " inputs; one image input is supported");
  return g;
}

}  // namespace ocrforge
