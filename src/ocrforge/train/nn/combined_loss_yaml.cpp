// CombinedLoss list and model-name readers (combined_loss_yaml.h).
#include "ocrforge/train/nn/combined_loss_yaml.h"

#include <algorithm>

#include "ocrforge/core/error.h"
#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

std::vector<CombinedLossEntry> combined_loss_entries(const YAML::Node& loss, const std::string& task,
                                                     const std::string& kinds, const std::string& example) {
  note_config_read("Loss.name");
  note_config_read("Loss.loss_config_list");
  const std::string name = loss && loss.IsMap() && present(loss, "name") ? loss["name"].as<std::string>() : "";
  if (name != "CombinedLoss")
    throw UsageError("Loss.name: '" + name + "'; " + task + " trains with name: CombinedLoss and a loss_config_list of " +
                     kinds);
  const YAML::Node list = loss["loss_config_list"];
  if (!list || !list.IsSequence() || list.size() == 0)
    throw UsageError("Loss.loss_config_list: missing or empty; list the loss terms, e.g. - " + example);
  std::vector<CombinedLossEntry> entries;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "Loss.loss_config_list[" + std::to_string(i) + "]";
    if (!list[i].IsMap() || list[i].size() != 1)
      throw UsageError(path + ": each entry is one loss, e.g. - " + example);
    const std::string kind = list[i].begin()->first.as<std::string>();
    note_config_read(path + "." + kind);
    entries.push_back({kind, list[i].begin()->second, path + "." + kind});
  }
  return entries;
}

void check_distill_model(const std::string& name, const std::vector<std::string>& models, const std::string& path) {
  if (std::find(models.begin(), models.end(), name) == models.end())
    throw UsageError(path + ": '" + name + "' is not a model of Architecture.Models (" + join(models) + ")");
}

std::pair<std::string, std::string> read_model_pair(const YAML::Node& pair, const std::string& path,
                                                    const std::vector<std::string>& models) {
  if (!pair.IsSequence() || pair.size() != 2 || !pair[0].IsScalar() || !pair[1].IsScalar())
    throw UsageError(path + ": each entry is a pair of model names, e.g. [Student, Teacher]");
  const auto a = pair[0].as<std::string>(), b = pair[1].as<std::string>();
  check_distill_model(a, models, path);
  check_distill_model(b, models, path);
  if (a == b) throw UsageError(path + ": [" + a + ", " + b + "] compares a model with itself");
  return {a, b};
}

}  // namespace ocrforge
