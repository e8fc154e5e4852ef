// `ocrforge export` of one detector of a distillation (PP-OCRv3 CML): a
// normal det inference folder, OUT/<name>/inference.onnx (native members
// emitted by det_model_onnx.h, ONNX members written back) and
// OUT/<name>/inference.yml with DBPostProcess and the thresholds of the
// config's DistillationDBPostProcess, so `ocrforge infer det --det_model_dir
// OUT/Student` and `ocrforge ocr --det_model_dir OUT/Student` read it as is.
#pragma once
#include <string>

namespace ocrforge {

class Config;
struct DetDistillMember;
struct InferenceFolder;

// Writes member `m` (weights already loaded) as folder `dir`.
InferenceFolder export_det_distill_member(const Config& config, const DetDistillMember& m, const std::string& dir);

}  // namespace ocrforge
