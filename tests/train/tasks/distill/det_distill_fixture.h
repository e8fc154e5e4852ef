// PP-OCRv3 CML configs for tests, on the tiny detection pages of
// det_fixture.h: Global / Optimizer / data from tiny_det_config, and the
// Architecture / Loss / PostProcess / Metric of the shipped tiny CML config
// (configs/det/PP-OCRv3/ch_PP-OCRv3_det_cml_tiny.yml: Teacher ResNet18_vd +
// LKPAN 32, Student and Student2 the tiny det model; PaddleOCR's three terms).
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "train/tasks/det/det_fixture.h"

namespace ocrforge::test {

struct CmlOptions {
  std::string teacher_pretrained;  // "" = none
  std::string teacher_onnx;        // set: the Teacher is this deployed DB model (algorithm ONNX)
  bool freeze_teacher = true;
};

inline YAML::Node tiny_cml_sections() {
  return YAML::LoadFile(source_dir() + "/configs/det/PP-OCRv3/ch_PP-OCRv3_det_cml_tiny.yml");
}

inline std::string tiny_cml_config(const TinyDetTask& t, int epochs, int batch, const CmlOptions& o = {},
                                   int size = 256, double lr = 0.002) {
  YAML::Node root = YAML::Load(tiny_det_config(t, epochs, batch, size, lr));
  const YAML::Node cml = tiny_cml_sections();
  for (const char* key : {"Architecture", "Loss", "PostProcess", "Metric"}) root[key] = YAML::Clone(cml[key]);
  YAML::Node teacher = root["Architecture"]["Models"]["Teacher"];
  teacher["freeze_params"] = o.freeze_teacher;
  if (!o.teacher_pretrained.empty()) teacher["pretrained"] = o.teacher_pretrained;
  if (!o.teacher_onnx.empty()) {
    YAML::Node onnx;
    onnx["freeze_params"] = o.freeze_teacher;
    onnx["model_type"] = "det";
    onnx["algorithm"] = "ONNX";
    onnx["onnx_model"] = o.teacher_onnx;
    root["Architecture"]["Models"]["Teacher"] = onnx;
  }
  return YAML::Dump(root);
}

// The tiny CML Teacher's network as a plain det config (to train it alone).
inline std::string tiny_teacher_config(const TinyDetTask& t, int epochs, int batch, int size = 256, double lr = 0.002) {
  YAML::Node root = YAML::Load(tiny_det_config(t, epochs, batch, size, lr));
  YAML::Node teacher = YAML::Clone(tiny_cml_sections()["Architecture"]["Models"]["Teacher"]);
  teacher.remove("freeze_params");
  teacher.remove("return_all_feats");
  root["Architecture"] = teacher;
  return YAML::Dump(root);
}

}  // namespace ocrforge::test
