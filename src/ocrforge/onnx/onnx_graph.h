// An ONNX model file read into plain C++ (no protobuf, no LibTorch: protobuf
// stays in onnx_graph.cpp, and the train layer turns tensors into LibTorch
// ones): the nodes in file order (ONNX requires topological order), their
// attributes, and every Constant / initializer as raw little-endian data.
// The shipped PP-OCR models keep all their weights in Constant nodes
// (paddle2onnx); other exporters use initializers: both end up in `constants`.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ocrforge {

// Element types the PP-OCR graphs use.
enum class OnnxType { Float, Double, Int64, Int32, Bool };
size_t onnx_type_size(OnnxType t);

struct OnnxTensor {
  OnnxType type = OnnxType::Float;
  std::vector<int64_t> dims;        // empty: a scalar
  std::vector<unsigned char> data;  // numel() * onnx_type_size(type) bytes, row-major, native byte order
  int64_t numel() const;
};

struct OnnxAttribute {
  enum class Kind { Int, Float, String, Ints, Floats, Tensor, Other } kind = Kind::Other;
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  OnnxTensor t;
};

struct OnnxNode {
  std::string op, name;                   // name may be empty in the file; see label()
  std::vector<std::string> inputs, outputs;  // "" = an omitted optional input
  std::map<std::string, OnnxAttribute> attrs;
  // "op 'name'" or "op producing 'output'" for error messages.
  std::string label() const;
};

struct OnnxGraph {
  std::string path;
  int64_t opset = 0;  // of the default ("" / "ai.onnx") domain
  std::vector<std::string> inputs, outputs;  // graph inputs that are not constants; graph outputs
  std::vector<OnnxNode> nodes;               // without the Constant nodes
  std::map<std::string, OnnxTensor> constants;  // Constant outputs and initializers, by value name
  // Declared shapes of the graph inputs and outputs, -1 for a dynamic
  // dimension; absent when the file declares none.
  std::map<std::string, std::vector<int64_t>> io_shapes;
};

// Reads and converts `path`. Throws Error naming the file when it is missing,
// not an ONNX model, uses another operator domain, has other than one
// non-constant input, or holds a tensor type other than float / double /
// int64 / int32 / bool or data stored outside the file.
OnnxGraph read_onnx_graph(const std::string& path);

}  // namespace ocrforge
