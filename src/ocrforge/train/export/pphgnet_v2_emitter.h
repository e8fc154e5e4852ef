// PPHGNetV2 (nn/pphgnet_v2.h) as ONNX nodes, in inference form: every conv
// with its BN folded in, a "SAME" conv as Pad -> Conv, the stem's pool as
// MaxPool with bottom / right pads (ONNX MaxPool's pads never win the max,
// as Paddle's "SAME" pool), LAB as Mul -> Add. Shared by the det and rec
// model exporters. Initializer names follow the modules
// (backbone.stages.0.blocks.0.layers.0.conv.weight).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/nn/pphgnet_v2.h"

namespace ocrforge::export_blocks {

// The outputs of the stages in out_indices (det).
std::vector<std::string> pphgnet_v2_features(OnnxEmitter& e, const std::string& x, const PPHGNetV2Layers& m,
                                             const std::string& path);
// The last stage's output, before the final pool (rec).
std::string pphgnet_v2_last(OnnxEmitter& e, const std::string& x, const PPHGNetV2Layers& m, const std::string& path);

}  // namespace ocrforge::export_blocks
