// Which task trains a config: a table with one line per task (task_registry.cpp),
// keyed by what the config's Architecture says. Adding a task is its folder
// under tasks/ plus one line there.
#pragma once
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/task.h"

namespace ocrforge {

class Config;
struct TrainerSpec;

// What Architecture says, read once.
struct TaskKey {
  ModelType model_type = ModelType::Rec;
  std::string algorithm;      // "" when absent
  bool distillation = false;  // algorithm Distillation (Architecture.Models)
};

TaskKey task_key_of(const Config& config);

using TaskFactory = std::unique_ptr<Task> (*)(const Config& config, const TrainerSpec& options,
                                              torch::Device device);

struct TaskEntry {
  const char* trains;               // for messages: "rec: CRNN, SVTR_LCNet (native) or ONNX"
  bool (*takes)(const TaskKey& k);  // whether this task trains `k`
  TaskFactory make;
};

// Every task, in the order they are asked: tasks added with add_task first,
// then the built-in table.
std::vector<TaskEntry> task_registry();

// Adds a task at run time, asked before the built-in ones (a plug-in, or a
// test's own task). Not for use while tasks are being made on other threads.
void add_task(TaskEntry entry);

// The first task that takes the config's key. UsageError naming
// Architecture.model_type / algorithm and listing what is trained otherwise.
std::unique_ptr<Task> make_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
