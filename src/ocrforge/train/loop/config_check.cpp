// `ocrforge check -c` (config_check.h).
#include "ocrforge/train/loop/config_check.h"

#include <torch/torch.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "ocrforge/train/loop/config_keys.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool is_url(const std::string& s) { return starts_with(s, "http://") || starts_with(s, "https://"); }

// Global.pretrained_model / Global.checkpoints as training would look for
// them: the path itself, or the prefix of an ocrforge .ckpt or a PaddleOCR
// .pdparams file.
bool weights_found(const std::string& prefix) {
  return exists(prefix) || exists(prefix + ".ckpt") || exists(prefix + ".pdparams");
}

void check_weights(const Config& config, const std::string& key, ConfigCheckReport& report) {
  const std::string value = config.get<std::string>(key, "");
  if (value.empty()) return;
  if (is_url(value))
    report.warnings.push_back(key + " is a URL (" + value + "): nothing is downloaded; download it and set -o " + key +
                              "=PATH before training");
  else if (!weights_found(value))
    report.warnings.push_back(key + " '" + value + "' not found (nor " + value + ".ckpt / .pdparams): training needs it there");
  else
    report.notes.push_back(key + " '" + value + "' found (check does not load weights)");
}

// A distillation member's own `pretrained` file, checked as Global's: a URL
// or a missing file is a warning, and the member is then built without it
// (training would stop there; check goes on to the rest of the config).
void check_member_weights(Config& config, ConfigCheckReport& report) {
  const YAML::Node models = config.root()["Architecture"]["Models"];
  if (!models || !models.IsMap()) return;
  for (const auto& member : models) {
    const std::string key = "Architecture.Models." + member.first.as<std::string>() + ".pretrained";
    const std::string value = config.get<std::string>(key, "");
    if (value.empty()) continue;
    check_weights(config, key, report);
    if (is_url(value) || !weights_found(value)) config.set_node(key, YAML::Node(YAML::NodeType::Null));
  }
}

// A backbone's own `pretrained: true` (or a URL: PaddleOCR downloads its
// ImageNet weights) is a warning, as a URL Global.pretrained_model is:
// nothing is downloaded, and the rest of the config is checked with it set to
// false. Training refuses it (arch_yaml::refuse_backbone_download).
void check_backbone_downloads(Config& config, ConfigCheckReport& report) {
  // Each backbone, and where its weights can be given instead.
  std::vector<std::pair<std::string, std::string>> backbones{{"Architecture", "Global.pretrained_model"}};
  const YAML::Node models = config.root()["Architecture"]["Models"];
  if (models && models.IsMap())
    for (const auto& member : models) {
      const std::string m = "Architecture.Models." + member.first.as<std::string>();
      backbones.emplace_back(m, m + ".pretrained");
    }
  for (const auto& [model, weights] : backbones) {
    const std::string key = model + ".Backbone.pretrained";
    if (!config.has(key)) continue;
    const YAML::Node value = config.get<YAML::Node>(key, YAML::Node());
    if (!arch_yaml::backbone_downloads(value)) continue;
    report.warnings.push_back(key + " is " + (value.IsScalar() ? value.Scalar() : std::string("set")) +
                              ": PaddleOCR would download the backbone's ImageNet weights; nothing is downloaded "
                              "and training refuses it: set -o " + key + "=false and give the weights as " +
                              weights + " (.pdparams or a checkpoint)");
    config.set(key, false);
  }
}

// The data paths of `section` that do not exist, as warnings; true when any.
bool missing_data(const Config& config, const std::string& section, ConfigCheckReport& report) {
  bool missing = false;
  const std::string dir_key = section + ".dataset.data_dir";
  const std::string dir = config.get<std::string>(dir_key, "");
  if (!dir.empty() && !exists(dir)) {
    report.warnings.push_back(dir_key + " '" + dir + "' does not exist");
    missing = true;
  }
  const std::string list_key = section + ".dataset.label_file_list";
  for (const auto& file : config.get<std::vector<std::string>>(list_key, {}))
    if (!exists(file)) {
      report.warnings.push_back(list_key + ": '" + file + "' does not exist");
      missing = true;
    }
  return missing;
}

// Builds the section's loader as training would. With its data missing, the
// loader stops where it starts reading the data (an Error that is no
// UsageError, rec_data_config.h's contract): the keys, dataset name,
// transforms and loader settings before that point were checked.
void check_loader(Task& task, const Config& config, const std::string& section, ConfigCheckReport& report) {
  const bool training = section == "Train";
  const bool missing = missing_data(config, section, report);
  try {
    auto loader = task.make_loader(section, training, 0, 1);
    report.notes.push_back(section + ": data set and loader built (" + std::to_string(loader->batches_per_epoch()) +
                           " batches per epoch)");
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    if (!missing) throw;
    report.notes.push_back(section + ": dataset, transforms and loader keys checked; the data was not read (" +
                           e.what() + ")");
  }
}

std::string task_description(const Config& config) {
  const TaskKey key = task_key_of(config);
  for (const TaskEntry& e : task_registry())
    if (e.takes(key)) return e.trains;
  return "";
}

}  // namespace

ConfigCheckReport check_training_config(Config config) {
  ConfigCheckReport report;
  // Every key read below (the Trainer's reads and each loader's) is recorded;
  // the keys nothing read are reported at the end, as training reports them.
  TrainingConfigReads reads;
  if (config.get<bool>("Global.use_gpu", false) && !torch::cuda::is_available()) {
    report.warnings.push_back("Global.use_gpu is true but this machine has no usable CUDA device: train here with -o "
                              "Global.use_gpu=False (checked as on CPU)");
    config.set("Global.use_gpu", false);
  }
  check_weights(config, "Global.pretrained_model", report);
  check_weights(config, "Global.checkpoints", report);
  check_member_weights(config, report);
  check_backbone_downloads(config, report);

  Trainer trainer(config, TrainerMode::Check);
  Task& task = trainer.task();
  report.task = task_description(config);
  torch::nn::Module& model = task.model();
  for (const auto& p : model.parameters()) report.parameters += p.numel();
  for (const auto& child : model.named_children()) {
    int64_t n = 0;
    for (const auto& p : child.value()->parameters()) n += p.numel();
    report.parts.emplace_back(child.key(), n);
  }

  const TrainerSpec& spec = trainer.options();
  report.dictionary = spec.character_dict_path;
  if (!spec.character_dict_path.empty())
    report.classes =
        Charset::load(spec.character_dict_path, spec.use_space_char, "Global.character_dict_path").num_classes();
  else if (config.has("Global.label_list"))
    report.classes = static_cast<int>(config.get<std::vector<std::string>>("Global.label_list", {}).size());

  for (const std::string section : {"Train", "Eval"})
    if (config.has(section)) check_loader(task, config, section, report);
  for (const auto& w : task.startup_warnings()) report.warnings.push_back(w);
  for (const auto& i : task.startup_info()) report.notes.push_back(i);
  reads.finish(config);
  return report;
}

}  // namespace ocrforge
