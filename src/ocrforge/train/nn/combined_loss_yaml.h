// Reading PaddleOCR's `Loss: {name: CombinedLoss, loss_config_list: [...]}`
// of a distillation config, shared by the recognition terms
// (distill_loss_spec.h) and the detection (CML) terms
// (det_distill_loss_spec.h): the list itself and the model names its terms
// refer to. Torch-free.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ocrforge {

// One entry of loss_config_list: the loss's name, its settings and where it
// sits ("Loss.loss_config_list[1].DistillationDMLLoss"), for messages.
struct CombinedLossEntry {
  std::string kind;
  YAML::Node args;
  std::string path;
};

// The entries of a CombinedLoss. UsageError naming the key when Loss is not
// CombinedLoss, has other keys, or its list is missing, empty or holds an
// entry that is not a single loss. `task` ("a Distillation architecture")
// and `kinds` ("DistillationDMLLoss / ...") word the message; `example` is
// one entry as the user would write it.
std::vector<CombinedLossEntry> combined_loss_entries(const YAML::Node& loss, const std::string& task,
                                                     const std::string& kinds, const std::string& example);

// UsageError at `path` unless `name` is one of Architecture.Models.
void check_distill_model(const std::string& name, const std::vector<std::string>& models, const std::string& path);

// One [a, b] pair of two different models of Architecture.Models.
std::pair<std::string, std::string> read_model_pair(const YAML::Node& pair, const std::string& path,
                                                    const std::vector<std::string>& models);

}  // namespace ocrforge
