// Networks whose weights come from a PaddleOCR inference file (an .onnx
// export: PPLCNetV3's LearnableRepLayers fused, training-only branches gone)
// are built in that inference form, so the file loads exactly
// (nn/pplcnet_v3.h). This decides it the same way for training, resuming,
// export and checkpoint inference, and reports what such a load filled.
#pragma once
#include <string>
#include <vector>

#include <torch/torch.h>

#include "ocrforge/core/error.h"

namespace ocrforge {

struct TrainerSpec;
struct PretrainedReport;

// True when Global.pretrained_model is an inference .onnx file, or when the
// checkpoint that Global.checkpoints resumes or Global.pretrained_model names
// holds a network in that form (a fine-tune of the file, or of such a
// fine-tune). PaddleOCR's export command names the checkpoint as
// Global.pretrained_model.
bool weights_from_inference_file(const TrainerSpec& options);

// The start-up line that says so ("<what> is built in its inference form ...").
std::string inference_form_info(const std::string& what, const std::string& file);

// The error for an inference file as Global.pretrained_model when the
// Architecture is itself an ONNX file (algorithm ONNX): it has its weights.
UsageError pretrained_with_onnx_architecture(const std::string& file);

// A PretrainedReport for a load that filled `loaded` in `model`: every other
// parameter or statistic of `model` (BN counters aside) is `missing`.
PretrainedReport report_loaded(torch::nn::Module& model, const std::vector<std::string>& loaded);

}  // namespace ocrforge
