// The parts of the Task interface with a body (task.h).
#include "ocrforge/core/error.h"
#include "ocrforge/train/tasks/task.h"

#include "ocrforge/train/loop/checkpoint.h"

namespace ocrforge {

double EvalMetrics::get(const std::string& name) const {
  std::string known;
  for (const auto& [k, v] : values) {
    if (k == name) return v;
    known += (known.empty() ? "" : ", ") + k;
  }
  throw UsageError("Metric.main_indicator: '" + name + "' is not a metric of this task (known: " + known + ")");
}

PretrainedReport Task::load_pretrained_weights(const std::string& path) {
  if (is_inference_onnx_file(path))
    throw UsageError("Global.pretrained_model '" + path + "': an ONNX inference file loads into recognition and "
                     "detection networks (PPLCNetV3), not into this task; give a checkpoint or a .pdparams file");
  return load_pretrained(path, model());
}

Task::InferenceForward Task::inference_forward(const Config&, const std::string& checkpoint, const std::string& flag) {
  throw UsageError("'" + checkpoint + "' is a distillation checkpoint (several models); export it first: ocrforge export "
                   "-c <its config> -o Global.pretrained_model=" + checkpoint +
                   " Global.save_inference_dir=OUT, then " + flag + " OUT/Student");
}

void Task::report_eval_samples(EvalSampleSink) {
  throw UsageError("--save_wrong lists wrong samples of recognition and classification configs only "
                   "(Architecture.model_type rec or cls; for a distillation, export it and evaluate a member)");
}

}  // namespace ocrforge
