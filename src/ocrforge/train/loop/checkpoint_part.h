// Loading one part of a model (a distillation member) from a checkpoint:
// the part's weights may come from a checkpoint of the whole distillation
// (keys "Student.backbone...") or from one of the part trained alone (keys
// "backbone..."). Defined in checkpoint.cpp beside the file format.
#pragma once
#include <string>

#include "ocrforge/train/loop/checkpoint.h"

namespace ocrforge {

// When the file holds keys starting with `key_prefix` ("Student."), those
// (prefix removed) load into `part`; otherwise every key does. Loads what
// fits and reports the rest, like load_pretrained.
PretrainedReport load_pretrained_part(const std::string& prefix, torch::nn::Module& part, const std::string& key_prefix);

}  // namespace ocrforge
