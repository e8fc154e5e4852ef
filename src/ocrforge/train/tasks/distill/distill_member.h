// What recognition and detection distillation do alike to each member once
// it is built: load its own `pretrained` weights (a checkpoint of the whole
// distillation, keys "<Name>.", or of the model trained alone) and freeze it.
#pragma once
#include <string>
#include <vector>

#include <torch/nn/module.h>

#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"

namespace ocrforge {

// Loads spec.pretrained into `member` (when set) and freezes it when
// spec.freeze_params; returns the words for the member's startup line
// (", 212 tensors from <file>, frozen (...)") and appends what is worth a
// warning to `warnings` (tensors the file lacked; with
// `warn_random_frozen`, a frozen member left with its random weights).
// UsageError when a frozen member's checkpoint lacks some of its tensors: a
// frozen model must be complete.
std::string prepare_distill_member(const DistillMemberSpec& spec, torch::nn::Module& member, bool warn_random_frozen,
                                   std::vector<std::string>* warnings);

// Task::own_weights of a distillation exported without a checkpoint of the
// whole: each native member needs its own `pretrained` (UsageError naming
// the member otherwise); says where every member's weights come from.
// `Member`: RecDistillMember or DetDistillMember (spec, native, onnx).
template <typename Member>
std::string distill_members_own_weights(const std::vector<Member>& members) {
  std::string from;
  for (const auto& m : members) {
    if (m.native && m.spec.pretrained.empty())
      throw UsageError("export of a distillation needs its weights: -o Global.pretrained_model=<save_model_dir>/"
                       "best_accuracy (or Global.checkpoints); " + m.spec.path + " has no pretrained weights either");
    from += (from.empty() ? "" : ", ") + m.spec.name + ": " + (m.onnx ? m.onnx->path() : m.spec.pretrained);
  }
  return "the models' own weights (" + from + ")";
}

}  // namespace ocrforge
