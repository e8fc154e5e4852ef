// `ocrforge check -c CONFIG`: whether a training config could start training
// once its data is there, without training. The config goes through what
// `ocrforge train` does at start (a Trainer in TrainerMode::Check: the schema,
// the Global spec, the task and its network, the optimizer and schedule),
// then each data section's loader is built as far as the data allows. What
// only this machine or the data decides is a warning, not a failure: data
// paths that do not exist, a `pretrained_model` that is a URL (nothing is
// downloaded) or missing, `use_gpu: true` without CUDA here.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ocrforge/core/config.h"

namespace ocrforge {

struct ConfigCheckReport {
  std::string task;                                    // what trains it (the task table's description)
  int64_t parameters = 0;                              // of the whole network
  std::vector<std::pair<std::string, int64_t>> parts;  // the network's top-level modules and their parameters
  std::string dictionary;                              // Global.character_dict_path ("" when none)
  int classes = -1;                                    // output classes: dictionary (+ blank, space) or label_list; -1 none
  std::vector<std::string> warnings;                   // what training would still need (data, weights, a device)
  std::vector<std::string> notes;                      // what was checked and how (loaders, the task's start-up facts)
};

// Checks `config` (the file with its -o overrides applied). Throws the error
// training would stop with (UsageError / Error naming the key or component,
// e.g. an unknown key with its closest known one, a backbone not built).
ConfigCheckReport check_training_config(Config config);

}  // namespace ocrforge
