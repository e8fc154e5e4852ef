// Raising a model's default-domain opset to 11 in place, for ops that need
// it (the int8 quantiser's QLinearConv / ConvInteger / DynamicQuantizeLinear).
// Internal to the onnx layer: it works on libonnx's ModelProto.
//
// Between opsets 9 and 11 only a few ops changed form; those the PP-OCR
// graphs use are rewritten (Clip: min / max attributes -> inputs at 11;
// Slice: starts / ends / axes attributes -> inputs at 10). A graph holding an
// op whose meaning changed in a way not rewritten here (Pad, Resize, Upsample,
// TopK, Scatter) is left alone: the function returns false with the op named.
#pragma once
#include <onnx/onnx_pb.h>

#include <string>

namespace ocrforge::onnx_opset {

// The default-domain opset of `model` (0 when none is declared).
int64_t default_opset(const onnx::ModelProto& model);

// Raises `model` to opset 11 when it is below; true on success (or when it
// already was >= 11). On false, `why` names the op that blocked it and the
// model is unchanged.
bool upgrade_to_11(onnx::ModelProto* model, std::string* why);

}  // namespace ocrforge::onnx_opset
