// The CombinedLoss of a detection distillation (PaddleOCR's PP-OCRv3 CML
// recipe, ppocr/losses/distillation_loss.py), read into weighted terms.
// Torch-free; det_distill_losses.h computes them.
//
//   - DistillationDilaDBLoss: {model_name_pairs: [[Student, Teacher], ...],
//     key: maps, weight}: for each (student, teacher) pair, the teacher's
//     shrink map thresholded at 0.3 and dilated (2x2) is the label of the
//     student's shrink term (alpha x balanced Dice) and binary term (Dice).
//     Logged as dila_dbloss_<student>_<teacher>.
//   - DistillationDMLLoss with maps_name (thrink_maps | threshold_maps |
//     binary_maps), key: maps, act (none by default), use_log: PaddleOCR's
//     symmetric KL between the two models' maps (mutual learning), logged as
//     dml_<maps_name>_<i>. model_name_pairs may be a list of pairs or one
//     flat pair ([Student, Student2]), as PaddleOCR accepts.
//   - DistillationDBLoss: {model_name_list}: each listed model's DBLoss on
//     the ground-truth maps, logged as db_<model>_loss_shrink_maps /
//     _loss_threshold_maps / _loss_binary_maps.
// PaddleOCR builds both DB-style terms with DBLoss's defaults whatever the
// config says (balance_loss true, DiceLoss, alpha 5, beta 10, ohem_ratio 3,
// eps 1e-6): the keys are accepted and, when they differ from the defaults,
// listed in `ignored` (the task warns once) rather than silently applied.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/train/tasks/det/det_arch_spec.h"

namespace ocrforge {

struct DetDistillLossTerm {
  std::string kind;  // DistillationDilaDBLoss | DistillationDMLLoss | DistillationDBLoss
  std::string name;  // log-name prefix: dila_dbloss, dml, db (or the config's `name`)
  std::string path;  // "Loss.loss_config_list[1].DistillationDMLLoss", for messages
  double weight = 1.0;
  std::vector<std::pair<std::string, std::string>> pairs;  // DilaDB: (student, teacher); DML: (a, b)
  std::vector<std::string> models;                          // DB
  std::string maps_name;  // DML: thrink_maps | threshold_maps | binary_maps
  std::string act;        // DML: softmax | sigmoid | "" (none: the maps are probabilities)
  bool use_log = false;   // DML
  DBLossSpec db;          // the DB-style terms' parameters: always DBLoss's defaults, as PaddleOCR
  std::vector<std::string> ignored;  // keys given that PaddleOCR (and so ocrforge) does not use
  // The channel of a model's training maps (shrink 0, threshold 1, binary 2) this DML term compares.
  int map_channel() const;
};

// True when the Loss section lists a detection term (DistillationDilaDBLoss,
// DistillationDBLoss, or a DistillationDMLLoss with maps_name).
bool is_det_distill_loss(const YAML::Node& loss);

// UsageError naming the key for: a Loss that is not CombinedLoss, an empty
// list, an unknown loss or key, a missing weight-free list, a model name not
// in `models`, a pair of one model, a key other than maps, an unknown
// maps_name / act, a maps_name list (PaddleOCR then compares nothing), a
// recognition term (DistillationCTCLoss, a DML without maps_name).
std::vector<DetDistillLossTerm> det_distill_loss_from_yaml(const YAML::Node& loss,
                                                           const std::vector<std::string>& models);

}  // namespace ocrforge
