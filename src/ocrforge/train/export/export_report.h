// What `ocrforge export` wrote (export_model.h), filled by the task's
// export_inference (tasks/task.h).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// One sub-model of a distillation, written to OUT/<name>/.
struct ExportedMember {
  std::string name;       // Teacher, Student, ...
  std::string onnx_path;  // OUT/<name>/inference.onnx
  std::string yml_path;   // OUT/<name>/inference.yml
};

struct ExportReport {
  std::string onnx_path;     // the model written ("" for a distillation: see members)
  std::string yml_path;      // its inference.yml
  std::vector<ExportedMember> members;  // a distillation's models, each a complete inference folder
  std::string weights_from;  // the checkpoint read, or what the task's own weights are
  long parameters = 0;       // parameter tensors written back
  std::vector<std::string> notes;  // what was left out (training-only heads), for the command's output
};

// The message when a native network is exported without weights.
inline constexpr const char* kNativeExportNeedsWeights =
    "export of a native model needs its weights: -o Global.pretrained_model=<save_model_dir>/best_accuracy "
    "(or Global.checkpoints)";

}  // namespace ocrforge
