// The native direction classifier (cls_model.h) as an ONNX graph in
// inference form: the backbone's nodes (shared with the recognizer's
// exporter), GlobalAveragePool, Flatten, the fc and a Softmax: input "x"
// N x 3 x H x W (N, H, W dynamic), output "softmax" N x class_dim, the
// probabilities PaddleOCR's inference classifier gives and `ocrforge ocr
// --use_angle_cls` reads.
#pragma once
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/tasks/cls/cls_model.h"

namespace ocrforge {

OnnxGraph cls_model_to_onnx(const ClsModelImpl& model);

}  // namespace ocrforge
