// PPHGNet_small (nn/pphgnet.h) as ONNX nodes, in inference form: every
// conv with its BN folded in, the ESE attention as GlobalAveragePool ->
// Conv -> Sigmoid -> Mul. Shared by the det and rec model exporters.
// Initializer names follow the modules (backbone.stages.0.blocks.0.layers.0.conv.weight).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/nn/pphgnet.h"

namespace ocrforge::export_blocks {

// The outputs of the stages in out_indices (det).
std::vector<std::string> pphgnet_features(OnnxEmitter& e, const std::string& x, const PPHGNetLayers& m,
                                          const std::string& path);
// The last stage's output, before the final pool (rec).
std::string pphgnet_last(OnnxEmitter& e, const std::string& x, const PPHGNetLayers& m, const std::string& path);

}  // namespace ocrforge::export_blocks
