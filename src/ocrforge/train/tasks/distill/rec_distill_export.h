// `ocrforge export` of a recognition distillation: one normal rec inference
// folder per model, OUT/<name>/ (inference.onnx and an inference.yml with
// plain CTC decoding and the model's own dictionary), as PaddleOCR writes
// OUT/Student/ and OUT/Teacher/.
#pragma once
#include <string>

#include "ocrforge/train/export/export_report.h"

namespace ocrforge {

class Config;
class RecDistillTask;

// Writes every member of `task` (weights already loaded) under `out_dir`
// into r.members, with a note for each training-only head left out.
void export_rec_distillation(const Config& config, const RecDistillTask& task, const std::string& out_dir,
                             ExportReport& r);

}  // namespace ocrforge
