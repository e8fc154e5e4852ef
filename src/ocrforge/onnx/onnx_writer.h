// Writing ONNX files (the other half of onnx_graph.h; protobuf stays in the
// .cpp). Two writers with one purpose each:
//  - write_onnx_with_constants: a fine-tuned model goes back into the very
//    file it came from. Only the named constants' values change; nodes,
//    names, opset, metadata and every other byte-level choice of the original
//    exporter are kept, so any runtime that ran the original runs the result.
//  - write_onnx_graph: a small graph built in C++ (tests build tiny models
//    with it; the native-model exporter will emit through it).
#pragma once
#include <map>
#include <string>

#include "ocrforge/onnx/onnx_graph.h"

namespace ocrforge {

// Reads `src`, replaces the value of each constant named in `values` (a
// Constant node's tensor or an initializer) and writes the model to `dst`
// atomically (a temporary file renamed into place: a crash never leaves a
// half-written model). Error naming the value when it is not a constant of
// `src`, or when its element type or shape differs from the original.
void write_onnx_with_constants(const std::string& src, const std::string& dst,
                               const std::map<std::string, OnnxTensor>& values);

// Writes `g` as a model with opset `g.opset` (IR version 7 up to opset 14,
// 8 from opset 15, as the ONNX release of each opset did): constants become initializers, the
// inputs and outputs float tensors with g.io_shapes (the ONNX checker wants
// a shape on each). Atomic as above.
void write_onnx_graph(const OnnxGraph& g, const std::string& dst);

// onnx::checker::check_model and strict shape inference on the file at
// `path`: Error quoting the checker's message.
void check_onnx_model(const std::string& path);

}  // namespace ocrforge
