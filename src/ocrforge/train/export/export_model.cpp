// `ocrforge export` (export_model.h): weights and output folder here, the
// folders themselves by the task (Task::export_inference).
#include "ocrforge/train/export/export_model.h"

#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/rec/checkpoint_ctc_branch.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "ocrforge/train/loop/config_keys.h"

namespace ocrforge {

namespace {

// An inference model already in `dir` or one folder down (a distillation
// exports one folder per member); "" when there is none.
std::string existing_inference_model(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(fs::path(dir) / "inference.onnx", ec)) return (fs::path(dir) / "inference.onnx").string();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && fs::exists(it->path() / "inference.onnx", ec))
      return (it->path() / "inference.onnx").string();
  return "";
}

}  // namespace

ExportReport export_inference_model(const Config& config, bool overwrite) {
  TrainingConfigReads reads;  // every key export reads, to report those nothing read
  const std::string out_dir = config.get<std::string>("Global.save_inference_dir", "");
  if (out_dir.empty())
    throw UsageError("Global.save_inference_dir: missing; say where the inference model goes, e.g. "
                     "-o Global.save_inference_dir=./inference/rec");
  if (!overwrite) {
    const std::string existing = existing_inference_model(out_dir);
    if (!existing.empty())
      throw UsageError("Global.save_inference_dir '" + out_dir + "' already holds an exported model (" + existing +
                       "); pass --overwrite to replace it, or choose another folder");
  }
  const TrainerSpec options = trainer_spec_from_config(config);
  std::unique_ptr<Task> task = make_task(config, options, torch::kCPU);
  // Export builds the network only: data, optimiser, loss and metric are training's.
  for (const char* section : {"Train", "Eval", "Optimizer", "Loss", "Metric"}) reads.excuse(section);
  reads.finish(config);
  ExportReport r;
  const std::string weights = !options.checkpoints.empty() ? options.checkpoints : options.pretrained_model;
  if (!weights.empty()) {
    // Every tensor must fit (a mismatch names the keys), except that a MultiHead
    // checkpoint trained before ocrforge built its SARHead lacks sar_head.*:
    // export writes the CTC branch only.
    // A PaddleOCR inference.onnx holds what its export needs: the task loads
    // it strictly (every tensor it names must fit).
    if (is_inference_onnx_file(weights))
      task->load_pretrained_weights(weights);
    else
      load_checkpoint_ctc_branch(weights, task->model());
    r.weights_from = weights_path(weights);
  } else {
    r.weights_from = task->own_weights();
  }
  task->model().eval();
  task->export_inference(config, out_dir, r);
  return r;
}

}  // namespace ocrforge
