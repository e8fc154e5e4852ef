// Small tools for reading and rewriting an ONNX graph in place (libonnx
// protobuf), shared by the int8 quantiser (onnx_quantize.cpp) and the graph
// simplifier (onnx_simplify.cpp). Internal to the onnx layer: it pulls in
// protobuf.
#pragma once
#include <onnx/onnx_pb.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ocrforge::onnx_edit {

inline bool default_domain(const onnx::NodeProto& n) { return n.domain().empty() || n.domain() == "ai.onnx"; }

inline const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

inline int64_t int_attr(const onnx::NodeProto& n, const std::string& name, int64_t def) {
  const auto* a = find_attr(n, name);
  return a ? a->i() : def;
}

inline float float_attr(const onnx::NodeProto& n, const std::string& name, float def) {
  const auto* a = find_attr(n, name);
  return a ? a->f() : def;
}

// Appends an attribute to `n` (the caller has cleared any of the same name).
inline void add_int_attr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
inline void add_ints_attr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (auto x : v) a->add_ints(x);
}
inline void add_float_attr(onnx::NodeProto* n, const std::string& name, float v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

inline std::string node_label(const onnx::NodeProto& n) {
  return n.op_type() + " '" + (n.name().empty() ? n.output(0) : n.name()) + "'";
}

// A float tensor's values (raw_data or float_data).
inline std::vector<float> float_values(const onnx::TensorProto& t) {
  std::vector<float> v;
  if (!t.raw_data().empty()) {
    v.resize(t.raw_data().size() / 4);
    std::memcpy(v.data(), t.raw_data().data(), v.size() * 4);
  } else {
    v.assign(t.float_data().begin(), t.float_data().end());
  }
  return v;
}

template <typename T>
std::string raw_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// The model as a rewrite sees it: constants (initializers and Constant
// node outputs) by name, who consumes each value, and names made unique.
class GraphView {
 public:
  explicit GraphView(onnx::ModelProto* model) : model_(model) { index(); }

  void index() {
    constants_.clear();
    consumers_.clear();
    producer_.clear();
    names_.clear();
    auto* g = model_->mutable_graph();
    for (auto& t : *g->mutable_initializer()) {
      constants_[t.name()] = &t;
      names_.insert(t.name());
    }
    for (int i = 0; i < g->node_size(); ++i) {
      auto* n = g->mutable_node(i);
      if (n->op_type() == "Constant" && default_domain(*n) && n->output_size() == 1)
        for (auto& a : *n->mutable_attribute())
          if (a.name() == "value" && a.type() == onnx::AttributeProto::TENSOR) constants_[n->output(0)] = a.mutable_t();
      for (const auto& in : n->input())
        if (!in.empty()) consumers_[in].push_back(i);
      for (const auto& out : n->output()) {
        producer_[out] = i;
        names_.insert(out);
      }
    }
    for (const auto& vi : g->input()) names_.insert(vi.name());
  }

  const onnx::TensorProto* constant(const std::string& name) const {
    const auto it = constants_.find(name);
    return it == constants_.end() ? nullptr : it->second;
  }
  onnx::TensorProto* mutable_constant(const std::string& name) {
    const auto it = constants_.find(name);
    return it == constants_.end() ? nullptr : it->second;
  }
  const std::vector<int>& consumers(const std::string& name) const {
    static const std::vector<int> none;
    const auto it = consumers_.find(name);
    return it == consumers_.end() ? none : it->second;
  }
  int producer(const std::string& name) const {
    const auto it = producer_.find(name);
    return it == producer_.end() ? -1 : it->second;
  }
  std::string unique(const std::string& base) {
    std::string name = base;
    for (int i = 1; names_.count(name); ++i) name = base + "_" + std::to_string(i);
    names_.insert(name);
    return name;
  }

 private:
  onnx::ModelProto* model_;
  std::map<std::string, onnx::TensorProto*> constants_;
  std::map<std::string, std::vector<int>> consumers_;
  std::map<std::string, int> producer_;
  std::set<std::string> names_;
};

inline bool float_constant(const GraphView& v, const std::string& name, size_t rank) {
  const auto* t = v.constant(name);
  return t && t->data_type() == onnx::TensorProto::FLOAT && static_cast<size_t>(t->dims_size()) == rank;
}

// Removes the constants (initializers, Constant nodes) no node and no graph
// output reads any more, e.g. weights a rewrite replaced; initializers are
// also taken out of the graph inputs, where old IRs list them.
inline void remove_unused_constants(onnx::GraphProto* g) {
  std::set<std::string> used;
  for (const auto& n : g->node())
    for (const auto& in : n.input()) used.insert(in);
  for (const auto& o : g->output()) used.insert(o.name());
  std::set<std::string> removed;
  auto* inits = g->mutable_initializer();
  for (int i = inits->size() - 1; i >= 0; --i)
    if (!used.count(inits->Get(i).name())) {
      removed.insert(inits->Get(i).name());
      inits->DeleteSubrange(i, 1);
    }
  auto* inputs = g->mutable_input();
  for (int i = inputs->size() - 1; i >= 0; --i)
    if (removed.count(inputs->Get(i).name())) inputs->DeleteSubrange(i, 1);
  auto* nodes = g->mutable_node();
  for (int i = nodes->size() - 1; i >= 0; --i) {
    const auto& n = nodes->Get(i);
    if (n.op_type() == "Constant" && n.output_size() == 1 && !used.count(n.output(0))) nodes->DeleteSubrange(i, 1);
  }
}

}  // namespace ocrforge::onnx_edit
