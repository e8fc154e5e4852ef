// `ocrforge export`: a trained model -> an inference folder ORT runs
// (OUT/inference.onnx, what `ocrforge ocr --rec_model_dir OUT` reads).
// Today models fine-tuned from an ONNX graph (Architecture.algorithm ONNX)
// are written back as that graph with the trained weights; native models
// (SVTR_LCNet, CRNN, DB) are a clear "not supported yet" (the export issue).
#pragma once
#include <string>

namespace ocrforge {

class Config;

struct ExportReport {
  std::string onnx_path;     // the model written
  std::string weights_from;  // the checkpoint read, or the ONNX file itself when none was given
  long parameters = 0;       // parameter tensors written back
};

// Reads Global.save_inference_dir (required) and the weights from
// Global.checkpoints, else Global.pretrained_model (every tensor must fit:
// Error naming the keys otherwise), else, for an ONNX architecture, the
// graph's own weights. The written file passes the ONNX checker.
ExportReport export_inference_model(const Config& config);

}  // namespace ocrforge
