// The DB detection networks the trainer builds (models/det_model.h:
// MobileNetV3, ResNet_vd or PPLCNetV3 backbone, DBFPN, RSEFPN or LKPAN neck, DBHead) as an
// ONNX graph, in their inference form: batch norm folded into the
// (transposed) convolutions, and only the head's shrink-map branch, since
// the threshold branch is used by the training loss alone. Initializer names
// are the module names (`backbone.conv.conv.weight`, `head.binarize.conv2.weight`).
#pragma once
#include "ocrforge/onnx/onnx_graph.h"
#include "ocrforge/train/tasks/det/det_model.h"

namespace ocrforge {

// Input "x": N x in_channels x H x W (all but the channels dynamic; H and W
// multiples of 32, as DetResizeForTest makes them). Output
// "sigmoid_0.tmp_0": N x 1 x H x W shrink-map probabilities, the name and
// shape of PaddleOCR's exported DB models, so tools written for those take
// ours unchanged. Error naming the module for anything the exporter does not know.
OnnxGraph det_model_to_onnx(const DetModelImpl& model);

}  // namespace ocrforge
