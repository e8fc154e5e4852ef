// The DB detection networks the trainer builds (det_model.h: MobileNetV3,
// ResNet_vd, ResNet, PPLCNetV3, PPHGNet_small or PPHGNetV2_B4 backbone, DBFPN, RSEFPN
// or LKPAN (with or without IntraCL) neck, DBHead or PFHeadLocal) as an ONNX
// graph, in their inference form: batch norm folded into the (transposed)
// convolutions, and only the head's shrink-map branch (with PFHeadLocal's
// LocalModule and the average of the two maps), since the threshold branch is
// used by the training loss alone. Initializer names are the module names
// (`backbone.conv.conv.weight`, `head.binarize.conv2.weight`).
#pragma once
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/tasks/det/det_model.h"

namespace ocrforge {

// Input "x": N x in_channels x H x W (all but the channels dynamic; H and W
// multiples of 32, as DetResizeForTest makes them). Output
// "sigmoid_0.tmp_0": N x 1 x H x W shrink-map probabilities, the name and
// shape of PaddleOCR's exported DB models, so tools written for those take
// ours unchanged (PFHeadLocal's averaged map keeps that name too). Error
// naming the module for anything the exporter does not know.
OnnxGraph det_model_to_onnx(const DetModelImpl& model);

}  // namespace ocrforge
