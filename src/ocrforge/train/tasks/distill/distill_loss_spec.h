// `Loss: {name: CombinedLoss, loss_config_list: [...]}` of a distillation
// config (PaddleOCR's ppocr/losses/combined_loss.py and distillation_loss.py),
// read into a list of weighted terms. Torch-free; distill_losses.h computes them.
//
//   - DistillationDMLLoss: {model_name_pairs, act: softmax|sigmoid, use_log,
//     key: head_out, multi_head, dis_head: ctc|sar, name}
//       symmetric KL between the two models' outputs (mutual learning).
//   - DistillationDistanceLoss: {model_name_pairs, mode: l2|l1|smooth_l1,
//     key: backbone_out|neck_out|head_out, name}
//   - DistillationCTCLoss: {model_name_list, key, multi_head, name}
//       each listed model's own CTC loss on the labels.
//   - DistillationSARLoss: {model_name_list, key, multi_head, name, ignore_index}
//       each listed model's own SARLoss on label_sar (models/sar_loss.h).
//   - DistillationNRTRLoss: {model_name_list, key, multi_head, smoothing, name}
//       each listed model's own NRTRLoss on label_gtc (rec/nrtr_loss.h).
//   - DistillationDKDLoss: {model_name_pairs, key, multi_head: true,
//     dis_head: gtc, temperature, alpha, beta, name}
//       decoupled KD between the two NRTR outputs (distill_losses.h); PaddleOCR
//       computes it only there (its target is label_gtc).
//   - DistillCTCLogits: {model_name_pairs, key, reduction, name}
//       KL between the time-averaged CTC distributions (PP-OCRv4's recipe).
// Terms on the SAR branch (DistillationSARLoss, DML with dis_head: sar) need
// members whose MultiHead has a SARHead, terms on the NRTR branch (gtc)
// members with an NRTRHead (the distillation task checks).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

struct DistillLossTerm {
  std::string kind;   // one of the losses listed above
  std::string name;   // log-name prefix: dml, loss_distance, loss_ctc, loss_sar (or the config's `name`)
  std::string path;   // "Loss.loss_config_list[2].DistillationCTCLoss", for messages
  double weight = 1.0;
  std::vector<std::pair<std::string, std::string>> pairs;  // DML / Distance: (a, b)
  std::vector<std::string> models;                          // CTC / SAR
  std::string key = "head_out";  // head_out | backbone_out | neck_out
  bool multi_head = false;
  std::string dis_head = "ctc";  // ctc | sar (DML); gtc (DKD)
  std::string act;               // DML: softmax | sigmoid | "" (none)
  bool use_log = false;
  std::string mode = "l2";       // Distance: l1 | l2 | smooth_l1
  std::optional<long> ignore_index;  // SAR: given ignore_index (rec_loss_spec.h)
  bool smoothing = true;             // NRTR: label smoothing 0.1 (PaddleOCR's CELoss default)
  double temperature = 1.0, alpha = 1.0, beta = 1.0;  // DKD

  // Whether the term reads the NRTR branch (label_gtc, the gtc head).
  bool reads_gtc() const { return kind == "DistillationNRTRLoss" || kind == "DistillationDKDLoss"; }
};

// UsageError naming the key for: a Loss that is not CombinedLoss, an empty
// list, an unknown loss or key, a model name not in `models`, a bad pair,
// act / mode / key / dis_head values outside the lists above, or detection
// keys (maps_name: a detection distillation, read by det_distill_loss_spec.h).
std::vector<DistillLossTerm> distill_loss_from_yaml(const YAML::Node& loss, const std::vector<std::string>& models);

// The loss names a recognition distillation's CombinedLoss takes.
const std::vector<std::string>& distill_loss_kinds();

}  // namespace ocrforge
