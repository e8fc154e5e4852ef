// SVTR's modules (tasks/rec/svtr_block.h, tasks/rec/svtrnet.h) as ONNX
// nodes, in inference form: ConvBNLayer with its BN folded in, the exact GELU
// as its erf formula (opset 17 has no Gelu node), LayerNormalization, the
// Local mixer's mask and SVTRNet's position embedding as initializers.
// Shared by the svtr neck and the SVTRNet backbone of the rec exporter.
// Initializer names follow the modules (backbone.blocks1.0.mixer.local_mixer.weight).
#pragma once
#include <string>

#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"
#include "ocrforge/train/tasks/rec/svtrnet.h"

namespace ocrforge::export_blocks {

// x * 0.5 * (1 + erf(x / sqrt(2))): Paddle's nn.GELU (approximate=False).
std::string emit_gelu(OnnxEmitter& e, const std::string& x);
std::string emit_svtr_act(OnnxEmitter& e, const std::string& x, SvtrAct act);

// ConvBNLayer: conv + folded BN + its activation.
std::string svtr_conv_bn(OnnxEmitter& e, const std::string& x, const SvtrConvBNImpl& m, const std::string& path);

// One Block on N x L x C tokens (either norm order, any mixer).
std::string svtr_block(OnnxEmitter& e, const std::string& x, const SvtrBlockImpl& b, const std::string& path);

// SVTRNet on its fixed-size input: the map the heads read (svtrnet.h).
std::string svtrnet(OnnxEmitter& e, const std::string& x, const SvtrNetImpl& m, const std::string& path);

}  // namespace ocrforge::export_blocks
