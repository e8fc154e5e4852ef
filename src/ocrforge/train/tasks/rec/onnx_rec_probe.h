// How many CTC classes a deployed ONNX recognizer outputs, found by running
// it once: the file does not say, and a dictionary that does not fit must be
// an error before training starts (used by the rec task and by every
// ONNX member of a distillation).
#pragma once
#include <string>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"

namespace ocrforge {

// Runs `logits` of `graph` on a blank 3 x 48 x 320 image (PP-OCRv3 / v4),
// else 3 x 32 x 320 (v2), in eval mode, and returns the last dimension.
// UsageError naming `model_path` when neither runs.
int64_t probe_onnx_rec_classes(OnnxGraphModule& graph, const std::string& logits, const std::string& model_path);

// UsageError naming `setting` (the dictionary's config key) when `charset`
// does not give `classes` classes.
void check_dictionary_fits(const Charset& charset, int64_t classes, const std::string& model_path,
                           const std::string& setting);

}  // namespace ocrforge
