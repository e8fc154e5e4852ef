// `ocrforge export` of a detection distillation (PP-OCRv3 CML): one normal
// det inference folder per model, OUT/<name>/inference.onnx (native members
// emitted by det_model_onnx.h, ONNX members written back) and
// OUT/<name>/inference.yml with DBPostProcess and the thresholds of the
// config's DistillationDBPostProcess, so `ocrforge infer det --det_model_dir
// OUT/Student` and `ocrforge ocr --det_model_dir OUT/Student` read it as is.
#pragma once
#include <string>

#include "ocrforge/train/export/export_report.h"

namespace ocrforge {

class Config;
class DetDistillTask;

// Writes every member of `task` (weights already loaded) under `out_dir`
// into r.members.
void export_det_distillation(const Config& config, const DetDistillTask& task, const std::string& out_dir,
                             ExportReport& r);

}  // namespace ocrforge
