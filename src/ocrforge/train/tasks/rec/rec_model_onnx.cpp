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
#include "ocrforge/train/export/svtr_emitter.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet.h"
#include "ocrforge/train/tasks/rec/rec_pphgnet_v2.h"
#include "ocrforge/train/tasks/rec/rec_resnet.h"
#include "ocrforge/train/tasks/rec/encoder_svtr.h"
#include "ocrforge/train/tasks/rec/svtr_block.h"
#include "ocrforge/train/tasks/rec/svtrnet.h"

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

// --- ResNet (rec_resnet_vd.py) ---------------------------------------------

std::string rec_resnet(OnnxEmitter& e, std::string x, const RecResNetImpl& m, const std::string& path) {
  for (const char* stem : {"conv1_1", "conv1_2", "conv1_3"})
    x = resnet_conv_bn(e, x, child<ResNetConvBNImpl>(m, stem, path), path + "." + stem);
  x = e.node("MaxPool", {x},
             {{"kernel_shape", onnx_ints({3, 3})}, {"strides", onnx_ints({2, 2})}, {"pads", onnx_ints({1, 1, 1, 1})}},
             path + ".pool2d_max");
  for (int s = 0; find_child(m, "bb_" + std::to_string(s) + "_0"); ++s)
    for (int i = 0; find_child(m, "bb_" + std::to_string(s) + "_" + std::to_string(i)); ++i) {
      const std::string name = "bb_" + std::to_string(s) + "_" + std::to_string(i);
      x = resnet_block(e, x, child<ResNetBlockImpl>(m, name, path), path + "." + name);
    }
  return e.node("MaxPool", {x},
                {{"kernel_shape", onnx_ints({2, 2})}, {"strides", onnx_ints({2, 2})}, {"pads", onnx_ints({0, 0, 0, 0})}},
                path + ".out_pool");
}

// --- SVTR neck ---------------------------------------------------------------

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

std::vector<int64_t> rec_onnx_input_shape(const RecModelImpl& model, int64_t height) {
  const BackboneSpec& b = model.spec().backbone;
  if (b.name != "SVTRNet") return {-1, b.in_channels, height, -1};
  // SVTRNet takes one size; the predictor reads the static width and fits every crop into it.
  if (height != b.svtr.img_size.at(0))
    throw UsageError("export: the images are " + std::to_string(height) + " high (RecResizeImg image_shape) but "
                     "Architecture.Backbone.img_size is [" + std::to_string(b.svtr.img_size[0]) + ", " +
                     std::to_string(b.svtr.img_size[1]) + "]; SVTRNet takes that one size: make them agree");
  return {-1, b.in_channels, b.svtr.img_size[0], b.svtr.img_size[1]};
}

std::string rec_backbone_to_onnx(OnnxEmitter& e, const std::string& x, const RecBackboneImpl& backbone,
                                 const std::string& name) {
  if (const auto* svtr = backbone.as<SvtrNetImpl>()) return svtrnet(e, x, *svtr, "backbone");
  if (const auto* v1 = backbone.as<MobileNetV1EnhanceImpl>()) return mobilenet_v1_enhance(e, x, *v1, "backbone");
  if (const auto* v3 = backbone.as<MobileNetV3Impl>()) return mobilenet_v3(e, x, *v3, "backbone");
  if (const auto* resnet = backbone.as<RecResNetImpl>()) return rec_resnet(e, x, *resnet, "backbone");
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
  const std::string x = e.input("x", rec_onnx_input_shape(model, height));
  std::string y = rec_backbone_to_onnx(e, x, *model.backbone(), model.spec().backbone.name);
  if (model.spec().head_pool) {  // MultiHead's use_pool
    const std::vector<int64_t> k = multi_head_pool_kernel();
    y = e.node("AveragePool", {y},
               {{"kernel_shape", onnx_ints(k)}, {"strides", onnx_ints(k)}, {"pads", onnx_ints({0, 0, 0, 0})}},
               "head.pool");
  }
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
