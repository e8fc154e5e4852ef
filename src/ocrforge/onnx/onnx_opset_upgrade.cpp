// Opset 9/10 -> 11 for the ops the PP-OCR graphs use (onnx_opset_upgrade.h).
#include "ocrforge/onnx/onnx_opset_upgrade.h"

#include <limits>
#include <set>
#include <vector>

namespace ocrforge::onnx_opset {

namespace {

const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

void remove_attrs(onnx::NodeProto* n, const std::set<std::string>& names) {
  auto* attrs = n->mutable_attribute();
  for (int i = attrs->size() - 1; i >= 0; --i)
    if (names.count(attrs->Get(i).name())) attrs->DeleteSubrange(i, 1);
}

// A new initializer with a name no other value has.
std::string add_initializer(onnx::GraphProto* g, const std::string& base, int32_t type, const std::vector<int64_t>& dims,
                            const std::string& raw) {
  const std::string name = base + "_opset11";
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(raw);
  return name;
}

std::string ints_raw(const google::protobuf::RepeatedField<int64_t>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), static_cast<size_t>(v.size()) * sizeof(int64_t));
}

}  // namespace

int64_t default_opset(const onnx::ModelProto& model) {
  for (const auto& op : model.opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") return op.version();
  return 0;
}

bool upgrade_to_11(onnx::ModelProto* model, std::string* why) {
  const int64_t from = default_opset(*model);
  if (from >= 11) return true;
  // Ops whose inputs or meaning changed between opset 9 and 11 and that are
  // not rewritten below. Every other op the PP-OCR graphs hold kept its form.
  static const std::set<std::string> blocked = {"Pad", "Resize", "Upsample", "TopK", "Scatter", "Loop", "If", "Scan"};
  for (const auto& n : model->graph().node())
    if ((n.domain().empty() || n.domain() == "ai.onnx") && blocked.count(n.op_type())) {
      *why = n.op_type() + " '" + n.name() + "' changed form before opset 11 and is not rewritten";
      return false;
    }
  auto* g = model->mutable_graph();
  int counter = 0;
  for (auto& n : *g->mutable_node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    const std::string base = (n.name().empty() ? n.output(0) : n.name()) + "_" + std::to_string(counter++);
    if (n.op_type() == "Clip") {  // opset 6 attributes min / max -> opset 11 inputs
      const auto* lo = find_attr(n, "min");
      const auto* hi = find_attr(n, "max");
      const float min = lo ? lo->f() : std::numeric_limits<float>::lowest();
      const float max = hi ? hi->f() : std::numeric_limits<float>::max();
      const std::string min_name = add_initializer(g, base + "_min", onnx::TensorProto::FLOAT, {},
                                                   std::string(reinterpret_cast<const char*>(&min), 4));
      const std::string max_name = add_initializer(g, base + "_max", onnx::TensorProto::FLOAT, {},
                                                   std::string(reinterpret_cast<const char*>(&max), 4));
      remove_attrs(&n, {"min", "max"});
      n.add_input(min_name);
      n.add_input(max_name);
    } else if (n.op_type() == "Slice" && from < 10) {  // opset 1 attributes -> opset 10 inputs
      const auto* starts = find_attr(n, "starts");
      const auto* ends = find_attr(n, "ends");
      const auto* axes = find_attr(n, "axes");
      if (!starts || !ends) {
        *why = "Slice '" + n.name() + "' has no starts / ends";
        return false;
      }
      const int64_t k = starts->ints_size();
      n.add_input(add_initializer(g, base + "_starts", onnx::TensorProto::INT64, {k}, ints_raw(starts->ints())));
      n.add_input(add_initializer(g, base + "_ends", onnx::TensorProto::INT64, {k}, ints_raw(ends->ints())));
      if (axes) n.add_input(add_initializer(g, base + "_axes", onnx::TensorProto::INT64, {k}, ints_raw(axes->ints())));
      remove_attrs(&n, {"starts", "ends", "axes"});
    }
  }
  for (auto& op : *model->mutable_opset_import())
    if (op.domain().empty() || op.domain() == "ai.onnx") op.set_version(11);
  // Opset 11 came with IR version 6; newer IRs read it too.
  if (model->ir_version() < 6) model->set_ir_version(6);
  return true;
}

}  // namespace ocrforge::onnx_opset
