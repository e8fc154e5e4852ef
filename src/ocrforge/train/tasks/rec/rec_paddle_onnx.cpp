#include "ocrforge/train/tasks/rec/rec_paddle_onnx.h"

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/nn/paddle_onnx_weights.h"
#include "ocrforge/train/tasks/rec/rec_pplcnet_v3.h"

namespace ocrforge {

RecPaddleOnnxOrder rec_paddle_onnx_weight_order(const RecModelImpl& model) {
  const auto* lcnet = model.backbone()->as<RecPPLCNetV3Impl>();
  if (!lcnet)
    throw UsageError("loading a PaddleOCR ONNX recognizer: the backbone '" + model.spec().backbone.name +
                     "' is not supported yet (PPLCNetV3 is)");
  if (model.spec().neck.encoder_type != "svtr")
    throw UsageError("loading a PaddleOCR ONNX recognizer: the neck '" + model.spec().neck.encoder_type +
                     "' is not supported yet (svtr is)");
  if (model.spec().head.mid_channels > 0)
    throw UsageError("loading a PaddleOCR ONNX recognizer: a CTCHead with mid_channels is not supported yet");
  RecPaddleOnnxOrder o;
  o.names = pplcnet_v3_onnx_order(lcnet->layers(), "backbone.");
  const auto add = [&](const std::string& base, std::initializer_list<const char*> leaves) {
    for (const char* leaf : leaves) o.names.push_back(base + leaf);
  };
  const auto conv_bn = [&](const std::string& base) {
    add(base, {"conv.weight", "norm.weight", "norm.bias", "norm.running_mean", "norm.running_var"});
  };
  const auto linear = [&](const std::string& base) {
    o.transposed.insert(base + "weight");
    add(base, {"weight", "bias"});
  };
  // The graph's order: EncoderWithSVTR's forward (conv1, conv2, the blocks,
  // the final norm, conv3, conv4, conv1x1), then the CTC head.
  const std::string enc = "neck.encoder.";
  conv_bn(enc + "conv1.");
  conv_bn(enc + "conv2.");
  for (int i = 0; i < model.spec().neck.depth; ++i) {
    const std::string b = enc + "svtr_block." + std::to_string(i) + ".";
    add(b, {"norm1.weight", "norm1.bias"});
    linear(b + "mixer.qkv.");
    linear(b + "mixer.proj.");
    add(b, {"norm2.weight", "norm2.bias"});
    linear(b + "mlp.fc1.");
    linear(b + "mlp.fc2.");
  }
  add(enc, {"norm.weight", "norm.bias"});
  conv_bn(enc + "conv3.");
  conv_bn(enc + "conv4.");
  conv_bn(enc + "conv1x1.");
  linear("head.fc.");
  return o;
}

std::vector<std::string> load_rec_paddle_onnx(RecModelImpl& model, const std::string& onnx_path) {
  const RecPaddleOnnxOrder order = rec_paddle_onnx_weight_order(model);
  const OnnxGraph graph = read_onnx_graph(onnx_path);
  load_weights_in_order(model, order.names, paddle_onnx_weights_in_use_order(graph), onnx_path, order.transposed);
  return order.names;
}

}  // namespace ocrforge
