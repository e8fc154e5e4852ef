#include "ocrforge/train/tasks/det/det_paddle_onnx.h"

#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/nn/paddle_onnx_weights.h"
#include "ocrforge/train/tasks/det/det_pplcnet_v3.h"
#include "ocrforge/train/tasks/det/det_rse_fpn.h"

namespace ocrforge {

std::vector<std::string> det_paddle_onnx_weight_order(const DetModelImpl& model) {
  const auto* lcnet = model.backbone()->as<DetPPLCNetV3Impl>();
  if (!lcnet)
    throw UsageError("loading a PaddleOCR ONNX detector: the backbone '" + model.spec().backbone.name +
                     "' is not supported yet (PPLCNetV3 is)");
  if (!model.neck()->as<RSEFPNImpl>())
    throw UsageError("loading a PaddleOCR ONNX detector: the neck '" + model.spec().neck.name +
                     "' is not supported yet (RSEFPN is)");
  std::vector<std::string> names = pplcnet_v3_onnx_order(lcnet->layers(), "backbone.");
  // PaddleOCR's RSEFPN runs its lateral layers from the coarsest level down,
  // then its output layers the same way.
  for (const char* list : {"ins_conv", "inp_conv"})
    for (int level = 3; level >= 0; --level) {
      const std::string p = std::string("neck.") + list + "." + std::to_string(level) + ".";
      for (const char* leaf : {"in_conv.weight", "se_block.conv1.weight", "se_block.conv1.bias",
                               "se_block.conv2.weight", "se_block.conv2.bias"})
        names.push_back(p + leaf);
    }
  for (const char* leaf :
       {"conv1.weight", "conv_bn1.weight", "conv_bn1.bias", "conv_bn1.running_mean", "conv_bn1.running_var",
        "conv2.weight", "conv2.bias", "conv_bn2.weight", "conv_bn2.bias", "conv_bn2.running_mean",
        "conv_bn2.running_var", "conv3.weight", "conv3.bias"})
    names.push_back(std::string("head.binarize.") + leaf);
  return names;
}

std::vector<std::string> load_det_paddle_onnx(DetModelImpl& model, const std::string& onnx_path) {
  const std::vector<std::string> names = det_paddle_onnx_weight_order(model);
  const OnnxGraph graph = read_onnx_graph(onnx_path);
  load_weights_in_order(model, names, paddle_onnx_weights_in_use_order(graph), onnx_path);
  return names;
}

}  // namespace ocrforge
