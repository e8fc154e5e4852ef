// `ocrforge export` of one recognizer of a distillation: a normal rec
// inference folder, OUT/<name>/ (inference.onnx and an inference.yml with
// plain CTC decoding and the model's own dictionary), as PaddleOCR writes
// OUT/Student/ and OUT/Teacher/.
#pragma once
#include <string>

#include "ocrforge/train/export/export_report.h"

namespace ocrforge {

class Config;
struct RecDistillMember;
struct InferenceFolder;

// Writes member `m` (weights already loaded) as folder `dir`, with a note in
// `r` for each training-only head left out.
InferenceFolder export_rec_distill_member(const Config& config, const RecDistillMember& m, const std::string& dir,
                                          ExportReport& r);

}  // namespace ocrforge
