// `ocrforge export`: a trained model -> an inference folder ORT runs
// (OUT/inference.onnx, what `ocrforge ocr --rec_model_dir OUT` reads, and
// OUT/inference.yml, export/inference_yml.h).
// - Models fine-tuned from an ONNX graph (Architecture.algorithm ONNX) are
//   written back as that graph with the trained weights.
// - Native recognition models (SVTR_LCNet, CRNN and the other rec necks) are
//   emitted as a new graph (export/rec_model_onnx.h, opset 17).
// - Native DB detection models (MobileNetV3 / ResNet_vd, DBFPN / RSEFPN,
//   DBHead) likewise (export/det_model_onnx.h).
// - A distillation (Architecture.algorithm Distillation) writes one folder
//   per model, OUT/Student/, OUT/Teacher/, as PaddleOCR does; each is a
//   normal inference folder.
// - Training-only heads (PP-OCRv3 MultiHead's SARHead) are not exported: the
//   inference model is the CTC branch, as PaddleOCR's; `notes` says so.
// - Native classifiers cannot be trained yet, so there is nothing to export.
// The task writes its own folder(s) (Task::export_inference); this function
// reads the weights and the output folder, the same for every task.
#pragma once
#include <string>

#include "ocrforge/train/export/export_report.h"

namespace ocrforge {

class Config;

// Reads Global.save_inference_dir (required) and the weights from
// Global.checkpoints, else Global.pretrained_model (every tensor must fit:
// Error naming the keys otherwise; only a SARHead's may be missing, from a
// checkpoint trained before ocrforge built it), else, for an ONNX architecture, the
// graph's own weights (a native model without weights is a UsageError). The
// written file passes the ONNX checker and strict shape inference. A folder
// that already holds an inference.onnx (or a distillation's
// <member>/inference.onnx) is refused (UsageError naming it) unless
// `overwrite`: a finished export is not replaced by accident.
ExportReport export_inference_model(const Config& config, bool overwrite = false);

}  // namespace ocrforge
