// The task table (task_registry.h).
#include "ocrforge/train/tasks/task_registry.h"

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/cls/cls_task.h"
#include "ocrforge/train/tasks/det/det_task.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"
#include "ocrforge/train/tasks/distill/rec_distill_task.h"
#include "ocrforge/train/tasks/rec/rec_task.h"

namespace ocrforge {

TaskKey task_key_of(const Config& config) {
  const YAML::Node arch = config.root()["Architecture"];
  TaskKey k;
  k.model_type = read_model_type(arch, "Architecture");
  k.algorithm = config.get<std::string>("Architecture.algorithm", "");
  k.distillation = k.algorithm == "Distillation";
  return k;
}

namespace {

std::vector<TaskEntry>& added_tasks() {
  static std::vector<TaskEntry> entries;
  return entries;
}

// One line per task: what it trains, which configs it takes, its factory.
const std::vector<TaskEntry>& built_in_tasks() {
  static const std::vector<TaskEntry> entries = {
      {"rec: CRNN, SVTR_LCNet and the other CTC networks, or a shipped ONNX recognizer (algorithm ONNX)",
       rec_task_takes, make_rec_task},
      {"det: DB, or a shipped ONNX detector (algorithm ONNX)", det_task_takes, make_det_task},
      {"cls: PaddleOCR's classifier (algorithm CLS: a recognition backbone + ClsHead) or a shipped ONNX one (algorithm ONNX)",
       cls_task_takes, make_cls_task},
      {"rec distillation (PP-OCRv3's recipe)", rec_distill_task_takes, make_rec_distill_task},
      {"det distillation (PP-OCRv3's CML)", det_distill_task_takes, make_det_distill_task},
  };
  return entries;
}

}  // namespace

std::vector<TaskEntry> task_registry() {
  std::vector<TaskEntry> all = added_tasks();
  all.insert(all.end(), built_in_tasks().begin(), built_in_tasks().end());
  return all;
}

void add_task(TaskEntry entry) { added_tasks().push_back(entry); }

std::unique_ptr<Task> make_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  const TaskKey key = task_key_of(config);
  std::string trained;
  for (const TaskEntry& e : task_registry()) {
    if (e.takes(key)) return e.make(config, options, device);
    trained += std::string("\n  ") + e.trains;
  }
  throw UsageError(std::string("Architecture: model_type '") + model_type_name(key.model_type) + "' with algorithm '" +
                   key.algorithm + "' is not trained by ocrforge yet; it trains:" + trained);
}

}  // namespace ocrforge
