// Distillation configs for tests, built from the tiny recognition task of
// trainer_fixture.h: the same small CRNN as Student (and Teacher), a
// CombinedLoss of the Student's CTC loss and, optionally, DML against the
// Teacher.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "train/tasks/rec/trainer_fixture.h"

namespace ocrforge::test {

struct DistillOptions {
  std::string teacher_pretrained;  // "" = none
  bool freeze_teacher = true;
  bool dml = true;                 // add DistillationDMLLoss [Student, Teacher]
  bool teacher_ctc = false;        // DistillationCTCLoss on the Teacher too
};

// Student is listed first, so it is built first after the seed and starts
// from exactly the weights the plain tiny_config model starts from.
inline std::string tiny_distill_config(const TinyTask& t, int epochs, int batch, const DistillOptions& o,
                                       double lr = 0.005) {
  YAML::Node root = YAML::Load(tiny_config(t, epochs, batch, lr));
  const YAML::Node net = YAML::Clone(root["Architecture"]);
  YAML::Node arch;
  arch["model_type"] = "rec";
  arch["name"] = "DistillationModel";
  arch["algorithm"] = "Distillation";
  YAML::Node student = YAML::Clone(net);
  student["freeze_params"] = false;
  student["return_all_feats"] = true;
  arch["Models"]["Student"] = student;
  YAML::Node teacher = YAML::Clone(net);
  teacher["freeze_params"] = o.freeze_teacher;
  teacher["return_all_feats"] = true;
  if (!o.teacher_pretrained.empty()) teacher["pretrained"] = o.teacher_pretrained;
  arch["Models"]["Teacher"] = teacher;
  root["Architecture"] = arch;

  YAML::Node loss;
  loss["name"] = "CombinedLoss";
  YAML::Node ctc;
  ctc["DistillationCTCLoss"]["weight"] = 1.0;
  ctc["DistillationCTCLoss"]["model_name_list"].push_back("Student");
  if (o.teacher_ctc) ctc["DistillationCTCLoss"]["model_name_list"].push_back("Teacher");
  ctc["DistillationCTCLoss"]["key"] = "head_out";
  loss["loss_config_list"].push_back(ctc);
  if (o.dml) {
    YAML::Node dml;
    YAML::Node pair;
    pair.push_back("Student");
    pair.push_back("Teacher");
    dml["DistillationDMLLoss"]["weight"] = 1.0;
    dml["DistillationDMLLoss"]["act"] = "softmax";
    dml["DistillationDMLLoss"]["use_log"] = true;
    dml["DistillationDMLLoss"]["model_name_pairs"].push_back(pair);
    dml["DistillationDMLLoss"]["key"] = "head_out";
    dml["DistillationDMLLoss"]["name"] = "dml_ctc";
    loss["loss_config_list"].push_back(dml);
  }
  root["Loss"] = loss;
  root["PostProcess"] = YAML::Load("{name: DistillationCTCLabelDecode, model_name: [Student, Teacher], key: head_out}");
  root["Metric"] =
      YAML::Load("{name: DistillationMetric, base_metric_name: RecMetric, main_indicator: acc, key: Student}");
  return YAML::Dump(root);
}

}  // namespace ocrforge::test
