// PaddleOCR's exported PP-OCRv4 mobile recognizer (models/PP-OCRv4/rec/
// inference.onnx: PPLCNetV3 x0.95 rec, the svtr neck of its MultiHead's
// CTC branch, CTCHead) loaded into the native RecModel, so it can be
// fine-tuned, evaluated and exported natively. The file holds the inference
// form: LearnableRepLayers fused into one conv each (build the model with
// BackboneSpec::rep_deploy) and the CTC branch only (a MultiHead's NRTR /
// SAR branch keeps its initialisation, as in PaddleOCR's own fine-tuning
// from a model without it).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ocrforge/train/tasks/rec/rec_model.h"

namespace ocrforge {

struct RecPaddleOnnxOrder {
  std::vector<std::string> names;   // native tensor names, in the order the graph reads its weights
  std::set<std::string> transposed;  // Linear weights (Paddle [in, out], LibTorch [out, in])
};

// Error naming the part whose file layout is not known (backbones other than
// PPLCNetV3, necks other than svtr).
RecPaddleOnnxOrder rec_paddle_onnx_weight_order(const RecModelImpl& model);

// Reads `onnx_path` and copies its weights into `model` (Error naming the
// file and the first mismatch; nothing changes then). Returns the names loaded.
std::vector<std::string> load_rec_paddle_onnx(RecModelImpl& model, const std::string& onnx_path);

}  // namespace ocrforge
