// PaddleOCR's exported PP-OCRv4 mobile detector (models/PP-OCRv4/det/
// inference.onnx: PPLCNetV3 x0.75 det, RSEFPN 96, DBHead) loaded into the
// native DetModel, so it can be fine-tuned, evaluated and exported natively.
// The file holds the inference form: LearnableRepLayers fused into one conv
// each (the model must be built with DetBackboneSpec::rep_deploy) and only
// the head's binarize branch (the thresh branch keeps its initialisation:
// PaddleOCR's own fine-tuning from an inference file has no thresh weights
// either).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/train/tasks/det/det_model.h"

namespace ocrforge {

// The native tensor names in the order the exported graph reads its weights.
// Error naming the part the file layout is not known for (backbones other
// than PPLCNetV3, necks other than RSEFPN).
std::vector<std::string> det_paddle_onnx_weight_order(const DetModelImpl& model);

// Reads `onnx_path` and copies its weights into `model` (Error naming the
// file and the first mismatch; nothing changes then). Returns the names loaded.
std::vector<std::string> load_det_paddle_onnx(DetModelImpl& model, const std::string& onnx_path);

}  // namespace ocrforge
