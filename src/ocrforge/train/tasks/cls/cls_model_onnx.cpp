#include "ocrforge/train/tasks/cls/cls_model_onnx.h"

#include "ocrforge/train/export/onnx_emitter.h"
#include "ocrforge/train/tasks/rec/rec_model_onnx.h"

namespace ocrforge {

OnnxGraph cls_model_to_onnx(const ClsModelImpl& model) {
  OnnxEmitter e;
  const std::string x = e.input("x", {-1, model.spec().backbone.in_channels, -1, -1});
  std::string y = rec_backbone_to_onnx(e, x, model.backbone(), model.spec().backbone.name);
  y = e.node("GlobalAveragePool", {y}, {}, "head.pool");
  y = e.node("Flatten", {y}, {{"axis", onnx_int(1)}}, "head.flatten");
  y = emit_linear(e, y, *model.head().fc, "head.fc");
  y = e.node("Softmax", {y}, {{"axis", onnx_int(1)}}, "head.softmax");
  e.output(y, "softmax", {-1, model.spec().class_dim});
  return std::move(e.graph());
}

}  // namespace ocrforge
