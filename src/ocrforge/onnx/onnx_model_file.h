// Reading an ONNX file into libonnx's ModelProto: one place for the open and
// parse errors, shared by the reader (onnx_graph.cpp) and the writer
// (onnx_writer.cpp). Internal to the onnx layer: it pulls in protobuf.
#pragma once
#include <onnx/onnx_pb.h>

#include <fstream>
#include <string>

#include "ocrforge/core/error.h"

namespace ocrforge::onnx_file {

inline onnx::ModelProto load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read ONNX model '" + path + "': missing or no permission");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) throw Error("'" + path + "' is not an ONNX model (protobuf parse failed)");
  return model;
}

}  // namespace ocrforge::onnx_file
