// PP-OCRv3-style MultiHead configs for tests, built from the tiny
// recognition task of trainer_fixture.h: the same small backbone (MobileNetV3
// small 0.35, 32 x 100 input), a MultiHead with a CTCHead (rnn or svtr neck)
// and a small SARHead, Loss MultiLoss (CTCLoss + SARLoss), and
// MultiLabelEncode in place of CTCLabelEncode; and a distillation of two such
// models with every term of PaddleOCR's ch_PP-OCRv3_rec_distillation.yml.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "train/tasks/rec/trainer_fixture.h"

namespace ocrforge::test {

struct MultiHeadOptions {
  std::string neck = "rnn";  // rnn | svtr | reshape
  bool use_guide = false;    // svtr only
  bool sar = true;           // list the SARHead (and SARLoss)
  int enc_dim = 64;          // SARHead enc_dim
  int d_k = 32;              // SARHead d_k
};

inline YAML::Node multihead_architecture(const MultiHeadOptions& o) {
  YAML::Node arch = YAML::Load(
      "{model_type: rec, algorithm: SVTR_LCNet, "
      "Backbone: {name: MobileNetV3, scale: 0.35, model_name: small, small_stride: [1, 2, 2, 2]}}");
  YAML::Node neck = o.neck == "svtr"
                        ? YAML::Load("{name: svtr, dims: 32, depth: 1, hidden_dims: 32, use_guide: " +
                                     std::string(o.use_guide ? "true" : "false") + "}")
                        : YAML::Load("{name: " + o.neck + ", hidden_size: 32}");
  YAML::Node ctc;
  ctc["CTCHead"]["Neck"] = neck;
  ctc["CTCHead"]["Head"] = YAML::Load("{fc_decay: 0.0}");
  arch["Head"]["name"] = "MultiHead";
  arch["Head"]["head_list"].push_back(ctc);
  if (o.sar) {
    YAML::Node sar;
    sar["SARHead"]["enc_dim"] = o.enc_dim;
    sar["SARHead"]["d_k"] = o.d_k;
    sar["SARHead"]["max_text_length"] = 8;
    arch["Head"]["head_list"].push_back(sar);
  }
  return arch;
}

// CTCLabelEncode -> MultiLabelEncode (SAR labels; with `nrtr`, gtc_encode:
// NRTRLabelEncode and label_gtc), in both sections.
inline void use_multi_label_encode(YAML::Node root, bool nrtr = false) {
  for (const char* section : {"Train", "Eval"}) {
    YAML::Node list = root[section]["dataset"]["transforms"];
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i]["CTCLabelEncode"] || list[i]["MultiLabelEncode"])
        list[i] = YAML::Load(nrtr ? "{MultiLabelEncode: {gtc_encode: NRTRLabelEncode}}" : "{MultiLabelEncode: null}");
      if (list[i]["KeepKeys"])
        list[i] = YAML::Load(std::string("{KeepKeys: {keep_keys: [image, label_ctc, ") +
                             (nrtr ? "label_gtc" : "label_sar") + ", length, valid_ratio]}}");
    }
  }
}

inline std::string tiny_multihead_config(const TinyTask& t, int epochs, int batch, const MultiHeadOptions& o = {},
                                         double lr = 0.005) {
  YAML::Node root = YAML::Load(tiny_config(t, epochs, batch, lr));
  root["Architecture"] = multihead_architecture(o);
  root["Loss"] = o.sar ? YAML::Load("{name: MultiLoss, loss_config_list: [{CTCLoss: null}, {SARLoss: null}]}")
                       : YAML::Load("{name: CTCLoss}");
  use_multi_label_encode(root);
  return YAML::Dump(root);
}

// Teacher and Student both tiny MultiHead models (Student first, trainable;
// Teacher trainable too: mutual learning, as PaddleOCR's recipe), with
// PaddleOCR's five terms: dml_ctc, dml_sar (weight 0.5), the backbone_out L2
// distance, CTC and SAR losses of both models.
inline std::string tiny_v3_distill_config(const TinyTask& t, int epochs, int batch, double lr = 0.005) {
  YAML::Node root = YAML::Load(tiny_multihead_config(t, epochs, batch, {}, lr));
  YAML::Node arch;
  arch["model_type"] = "rec";
  arch["name"] = "DistillationModel";
  arch["algorithm"] = "Distillation";
  for (const char* name : {"Student", "Teacher"}) {
    YAML::Node m = multihead_architecture({});
    m["freeze_params"] = false;
    m["return_all_feats"] = true;
    arch["Models"][name] = m;
  }
  root["Architecture"] = arch;
  root["Loss"] = YAML::Load(R"({name: CombinedLoss, loss_config_list: [
    {DistillationDMLLoss: {weight: 1.0, act: softmax, use_log: true, model_name_pairs: [[Student, Teacher]],
                           key: head_out, multi_head: true, dis_head: ctc, name: dml_ctc}},
    {DistillationDMLLoss: {weight: 0.5, act: softmax, use_log: true, model_name_pairs: [[Student, Teacher]],
                           key: head_out, multi_head: true, dis_head: sar, name: dml_sar}},
    {DistillationDistanceLoss: {weight: 1.0, mode: l2, model_name_pairs: [[Student, Teacher]], key: backbone_out}},
    {DistillationCTCLoss: {weight: 1.0, model_name_list: [Student, Teacher], key: head_out, multi_head: true}},
    {DistillationSARLoss: {weight: 1.0, model_name_list: [Student, Teacher], key: head_out, multi_head: true}}]})");
  root["PostProcess"] =
      YAML::Load("{name: DistillationCTCLabelDecode, model_name: [Student, Teacher], key: head_out, multi_head: true}");
  root["Metric"] =
      YAML::Load("{name: DistillationMetric, base_metric_name: RecMetric, main_indicator: acc, key: Student}");
  return YAML::Dump(root);
}

}  // namespace ocrforge::test
