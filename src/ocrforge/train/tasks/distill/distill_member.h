// What recognition and detection distillation do alike to each member once
// it is built: load its own `pretrained` weights (a checkpoint of the whole
// distillation, keys "<Name>.", or of the model trained alone) and freeze it.
#pragma once
#include <string>
#include <vector>

#include <torch/nn/module.h>

#include "ocrforge/train/tasks/distill/distill_task.h"

namespace ocrforge {

// Loads spec.pretrained into `member` (when set, through
// DistillMember::load_pretrained) and freezes it when
// spec.freeze_params; returns the words for the member's startup line
// (", 212 tensors from <file>, frozen (...)") and appends what is worth a
// warning to `warnings` (tensors the file lacked; with
// `warn_random_frozen`, a frozen member left with its random weights).
// UsageError when a frozen member's checkpoint lacks some of its tensors: a
// frozen model must be complete.
std::string prepare_distill_member(DistillMember& member, bool warn_random_frozen, std::vector<std::string>* warnings);

}  // namespace ocrforge
