// PPLCNetV3 (nn/pplcnet_v3.h) as ONNX nodes, in inference form: each
// LearnableRepLayer one Conv with its branches fused (training form) or its
// reparam_conv (deploy form), the stem's BN folded into its conv. Shared by
// the det and rec model exporters. Initializer names follow the modules
// (backbone.blocks2.0.dw_conv.reparam_conv.weight, ...lab.scale).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/nn/pplcnet_v3.h"

namespace ocrforge::export_blocks {

// The stage outputs of blocks3..blocks6 (through layer_list in the det variant).
std::vector<std::string> pplcnet_v3_features(OnnxEmitter& e, const std::string& x, const PPLCNetV3Layers& m,
                                             const std::string& path);
// The blocks6 output (recognition).
std::string pplcnet_v3_last(OnnxEmitter& e, const std::string& x, const PPLCNetV3Layers& m, const std::string& path);

}  // namespace ocrforge::export_blocks
