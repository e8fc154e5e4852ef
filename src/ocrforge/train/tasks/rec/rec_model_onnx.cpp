#include "ocrforge/train/tasks/rec/rec_model_onnx.h"

#include "ocrforge/core/error.h"
#include "ocrforge/train/export/module_emitters.h"
#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/tasks/rec/mobilenet_v1_enhance.h"
#include "ocrforge/train/tasks/rec/mobilenet_v3.h"
#include "ocrforge/train/tasks/rec/rec_pplcnet_v3.h"
#include "ocrforge/train/export/pphgnet_emitter.h"
#include "ocrforge/train/export/pphgnet_v2_emitter.h"
#include "ocrforge/train/export/pplcnet_v3_emitter.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet_v2.h"
#include "ocrforge/train/tasks/rec/encoder_svtr.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"

namespace ocrforge {

namespace {

using torch::nn::Module;
using namespace export_blocks;

// --- MobileNetV1Enhance ---------------------------------------------------

std::string mv1_conv_bn(OnnxEmitter& e, const std::string& x, const Module& m, const std::string& path) {
  return e.node("HardSwish", {conv_bn(e, x, m, "_conv", "_batch_norm", path)}, {}, path);
}

std::string mobilenet_v1_enhance(OnnxEmitter& e, std::string x, const MobileNetV1EnhanceImpl& m,
                                 const std::string& path) {
  x = mv1_conv_bn(e, x, child<MV1ConvBNImpl>(m, "conv1", path), path + ".conv1");
  const auto& blocks = child<torch::nn::SequentialImpl>(m, "block_list", path);
  for (const auto& kv : blocks.named_children()) {
    const std::string bp = path + ".block_list." + kv.key();
    const Module& b = *kv.value();
    x = mv1_conv_bn(e, x, child<MV1ConvBNImpl>(b, "_depthwise_conv", bp), bp + "._depthwise_conv");
    if (find_child(b, "_se")) x = se(e, x, child<MV1SEImpl>(b, "_se", bp), 1.0f / 6.0f, bp + "._se");
    x = mv1_conv_bn(e, x, child<MV1ConvBNImpl>(b, "_pointwise_conv", bp), bp + "._pointwise_conv");
  }
  const std::vector<int64_t> k = m.pool_kernel();
  return e.node(m.avg_pool() ? "AveragePool" : "MaxPool", {x},
                {{"kernel_shape", onnx_ints(k)}, {"strides", onnx_ints(k)}, {"pads", onnx_ints({0, 0, 0, 0})}},
                path + ".pool");
}

// --- MobileNetV3 (rec) ----------------------------------------------------

std::string mobilenet_v3(OnnxEmitter& e, std::string x, const MobileNetV3Impl& m, const std::string& path) {
  x = mv3_conv_bn(e, x, child<MV3ConvBNImpl>(m, "conv1", path), path + ".conv1");
  for (const auto& kv : child<torch::nn::SequentialImpl>(m, "blocks", path).named_children()) {
    const std::string bp = path + ".blocks." + kv.key();
    const auto* unit = kv.value()->as<ResidualUnitImpl>();
    if (!unit) throw Error("ONNX export: '" + bp + "' is not a residual unit");
    x = mv3_residual_unit(e, x, *unit, bp);
  }
  x = mv3_conv_bn(e, x, child<MV3ConvBNImpl>(m, "conv2", path), path + ".conv2");
  return e.node("MaxPool", {x},
                {{"kernel_shape", onnx_ints({2, 2})}, {"strides", onnx_ints({2, 2})}, {"pads", onnx_ints({0, 0, 0, 0})}},
                path + ".pool");
}

// --- SVTR neck --------------------------------------------------------------

std::string svtr_conv_bn(OnnxEmitter& e, const std::string& x, const Module& m, const std::string& path) {
  return emit_swish(e, conv_bn(e, x, m, "conv", "norm", path));
}

// Global multi-head self-attention on N x L x C tokens.
std::string svtr_attention(OnnxEmitter& e, const std::string& x, const SvtrAttentionImpl& m, const std::string& path) {
  const int64_t heads = m.heads(), hd = m.dim() / m.heads();
  std::string qkv = emit_linear(e, x, child<torch::nn::LinearImpl>(m, "qkv", path), path + ".qkv");
  qkv = e.node("Reshape", {qkv, e.ints({0, 0, 3, heads, hd})});
  qkv = e.node("Transpose", {qkv}, {{"perm", onnx_ints({2, 0, 3, 1, 4})}});  // 3, N, heads, L, hd
  const auto part = [&](int64_t i) { return e.node("Gather", {qkv, e.index(i)}, {{"axis", onnx_int(0)}}); };
  const std::string q = e.node("Mul", {part(0), e.scalar(static_cast<float>(m.scale()))});
  const std::string kt = e.node("Transpose", {part(1)}, {{"perm", onnx_ints({0, 1, 3, 2})}});
  const std::string attn = e.node("Softmax", {e.node("MatMul", {q, kt})}, {{"axis", onnx_int(-1)}}, path + ".attn");
  std::string out = e.node("MatMul", {attn, part(2)});                    // N, heads, L, hd
  out = e.node("Transpose", {out}, {{"perm", onnx_ints({0, 2, 1, 3})}});  // N, L, heads, hd
  out = e.node("Reshape", {out, e.ints({0, 0, m.dim()})});
  return emit_linear(e, out, child<torch::nn::LinearImpl>(m, "proj", path), path + ".proj");
}

std::string svtr_block(OnnxEmitter& e, const std::string& x, const SvtrBlockImpl& b, const std::string& path) {
  std::string y = emit_layer_norm(e, x, child<torch::nn::LayerNormImpl>(b, "norm1", path), path + ".norm1");
  y = svtr_attention(e, y, child<SvtrAttentionImpl>(b, "mixer", path), path + ".mixer");
  const std::string x1 = e.node("Add", {x, y});
  const auto& mlp = child<SvtrMlpImpl>(b, "mlp", path);
  y = emit_layer_norm(e, x1, child<torch::nn::LayerNormImpl>(b, "norm2", path), path + ".norm2");
  y = emit_swish(e, emit_linear(e, y, child<torch::nn::LinearImpl>(mlp, "fc1", path + ".mlp"), path + ".mlp.fc1"));
  y = emit_linear(e, y, child<torch::nn::LinearImpl>(mlp, "fc2", path + ".mlp"), path + ".mlp.fc2");
  return e.node("Add", {x1, y}, {}, path);
}

std::string encoder_svtr(OnnxEmitter& e, const std::string& x, const EncoderWithSVTRImpl& m, const std::string& path) {
  const auto conv = [&](const std::string& in, const std::string& name) {
    return svtr_conv_bn(e, in, child<SvtrConvBNImpl>(m, name, path), path + "." + name);
  };
  const std::string z = conv(conv(x, "conv1"), "conv2");  // N, C, H, W
  std::string t = e.node("Reshape", {z, e.ints({0, 0, -1})});
  t = e.node("Transpose", {t}, {{"perm", onnx_ints({0, 2, 1})}});  // N, H*W, C
  for (const auto& kv : child<torch::nn::ModuleListImpl>(m, "svtr_block", path).named_children()) {
    const auto* b = kv.value()->as<SvtrBlockImpl>();
    if (!b) throw Error("ONNX export: '" + path + ".svtr_block." + kv.key() + "' is not an SVTR block");
    t = svtr_block(e, t, *b, path + ".svtr_block." + kv.key());
  }
  t = emit_layer_norm(e, t, child<torch::nn::LayerNormImpl>(m, "norm", path), path + ".norm");
  t = e.node("Transpose", {t}, {{"perm", onnx_ints({0, 2, 1})}});  // N, C, H*W
  t = e.node("Reshape", {t, e.node("Shape", {z})});                 // N, C, H, W
  const std::string cat = e.node("Concat", {x, conv(t, "conv3")}, {{"axis", onnx_int(1)}});
  return conv(conv(cat, "conv4"), "conv1x1");
}

// N, C, 1, W -> N, W, C (Squeeze fails at run time when H is not 1, as Im2Seq does).
std::string im2seq(OnnxEmitter& e, const std::string& x) {
  const std::string s = e.node("Squeeze", {x, e.ints({2})});
  return e.node("Transpose", {s}, {{"perm", onnx_ints({0, 2, 1})}}, "neck.im2seq");
}

std::string sequence_encoder(OnnxEmitter& e, const std::string& x, const SequenceEncoderImpl& m) {
  const std::string type = m.encoder_type();
  if (type == "svtr") return im2seq(e, encoder_svtr(e, x, child<EncoderWithSVTRImpl>(m, "encoder", "neck"), "neck.encoder"));
  const std::string seq = im2seq(e, x);
  if (type == "reshape") return seq;
  if (type == "fc")
    return emit_linear(e, seq, child<torch::nn::LinearImpl>(child<EncoderWithFCImpl>(m, "encoder", "neck"), "fc", "neck.encoder"),
                       "neck.encoder.fc");
  if (type == "rnn")
    return emit_lstm(e, seq,
                     child<torch::nn::LSTMImpl>(child<EncoderWithRNNImpl>(m, "encoder", "neck"), "lstm", "neck.encoder"),
                     "neck.encoder.lstm");
  throw Error("ONNX export: SequenceEncoder type '" + type + "' is not known to the exporter");
}

std::string ctc_head(OnnxEmitter& e, const std::string& x, const CTCHeadImpl& m) {
  if (find_child(m, "fc")) return emit_linear(e, x, child<torch::nn::LinearImpl>(m, "fc", "head"), "head.fc");
  const std::string h = emit_linear(e, x, child<torch::nn::LinearImpl>(m, "fc1", "head"), "head.fc1");
  return emit_linear(e, h, child<torch::nn::LinearImpl>(m, "fc2", "head"), "head.fc2");
}

// The eval pool of PPLCNetV3 / PPHGNet (line_pool, rec_backbone.h), as PaddleOCR's inference export.
std::string emit_line_pool(OnnxEmitter& e, const std::string& x) {
  const std::vector<int64_t> k = line_pool_kernel();
  return e.node("AveragePool", {x},
                {{"kernel_shape", onnx_ints(k)}, {"strides", onnx_ints(k)}, {"pads", onnx_ints({0, 0, 0, 0})}},
                "backbone.pool");
}

}  // namespace

std::string rec_backbone_to_onnx(OnnxEmitter& e, const std::string& x, const RecBackboneImpl& backbone,
                                 const std::string& name) {
  if (const auto* v1 = backbone.as<MobileNetV1EnhanceImpl>()) return mobilenet_v1_enhance(e, x, *v1, "backbone");
  if (const auto* v3 = backbone.as<MobileNetV3Impl>()) return mobilenet_v3(e, x, *v3, "backbone");
  if (const auto* lcnet = backbone.as<RecPPLCNetV3Impl>())
    return emit_line_pool(e, pplcnet_v3_last(e, x, lcnet->layers(), "backbone"));
  if (const auto* hgnet = backbone.as<RecPPHGNetImpl>())
    return emit_line_pool(e, pphgnet_last(e, x, hgnet->layers(), "backbone"));
  if (const auto* hgnet2 = backbone.as<RecPPHGNetV2Impl>())
    return emit_line_pool(e, pphgnet_v2_last(e, x, hgnet2->layers(), "backbone"));
  throw Error("ONNX export: the backbone '" + name + "' is not known to the exporter");
}

OnnxGraph rec_model_to_onnx(const RecModelImpl& model, int64_t height) {
  OnnxEmitter e;
  const std::string x = e.input("x", {-1, model.spec().backbone.in_channels, height, -1});
  std::string y = rec_backbone_to_onnx(e, x, *model.backbone(), model.spec().backbone.name);
  y = sequence_encoder(e, y, *model.neck());
  y = ctc_head(e, y, *model.head());
  y = e.node("Softmax", {y}, {{"axis", onnx_int(2)}}, "head.softmax");
  e.output(y, "softmax", {-1, -1, model.head()->out_channels()});
  return std::move(e.graph());
}

std::string unexported_head_note(const RecModelImpl& model, const std::string& where) {
  if (!model.sar_head() && !model.gtc_head()) return "";
  const std::string what = model.sar_head() ? "the SARHead" : "the NRTR branch (before_gtc, gtc_head)";
  return where + "MultiHead: " + what + " (training only, " + std::to_string(model.guide_branch_parameters()) +
         " parameters) is not exported; inference.onnx is the CTC branch, as PaddleOCR's inference model";
}

}  // namespace ocrforge
