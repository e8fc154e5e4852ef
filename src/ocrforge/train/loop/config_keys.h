// The unknown-key check of a training config: every reader records the keys
// it reads (core/config_reads.h); once a run has read its config (trainer
// spec, task, loaders, optimizer), any key nothing read is a UsageError that
// names every such key with the closest key read beside it.
//
//   TrainingConfigReads reads;          // records this thread's config reads
//   ... trainer_spec_from_config(config), make_task(...), make_loader(...) ...
//   const auto ignored = reads.finish(config);   // throws on unknown keys
//
// Keys PaddleOCR configs carry that ocrforge accepts and ignores are listed
// once, in ignored_config_keys() (config_keys.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ocrforge/core/config.h"
#include "ocrforge/core/config_reads.h"

namespace ocrforge {

// The accepted-and-ignored keys, as full paths without list indices.
const std::vector<std::string>& ignored_config_keys();

class TrainingConfigReads {
 public:
  TrainingConfigReads();  // starts recording this thread's config reads
  TrainingConfigReads(const TrainingConfigReads&) = delete;
  TrainingConfigReads& operator=(const TrainingConfigReads&) = delete;

  // A section (or key) this run does not read, e.g. Train when only evaluating:
  // its keys are not reported.
  void excuse(const std::string& path);
  // Stops recording. UsageError "<config>: unknown config key '...' (did you
  // mean '...'?)" (or "N config problems:" listing each) when a key was read
  // by nothing; else the accepted-and-ignored keys the config holds.
  std::vector<std::string> finish(const Config& config);

 private:
  ConfigReads reads_;
  std::optional<ConfigReadScope> scope_;
};

// "ignored (accepted for PaddleOCR configs, no effect): Global.use_visualdl, ..."
// or "" when `keys` is empty.
std::string ignored_keys_line(const std::vector<std::string>& keys);

}  // namespace ocrforge
