// The parameter names a checkpoint holds, read without a model to load them
// into: which form of a network to build can depend on them
// (tasks/inference_file_weights.h). Defined in checkpoint.cpp; a header of
// its own so that the files including checkpoint.h do not depend on it.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// Names of the weights in the checkpoint `prefix` names (checkpoint_path's
// file); throws Error naming the file when it is missing or damaged.
std::vector<std::string> checkpoint_weight_names(const std::string& prefix);

}  // namespace ocrforge
