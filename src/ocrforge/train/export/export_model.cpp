// `ocrforge export` (export_model.h).
#include "ocrforge/train/export/export_model.h"

#include <filesystem>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/trainer_options.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/task/task.h"
#include "ocrforge/train/task/training_schema.h"

namespace fs = std::filesystem;

namespace ocrforge {

ExportReport export_inference_model(const Config& config) {
  register_training_schema();
  config.validate();
  const std::string out_dir = config.get<std::string>("Global.save_inference_dir", "");
  if (out_dir.empty())
    throw UsageError("Global.save_inference_dir: missing; say where the inference model goes, e.g. "
                     "-o Global.save_inference_dir=./inference/rec");
  if (!is_onnx_architecture(config.root()["Architecture"]))
    throw UsageError("export of native models (Architecture.algorithm '" +
                     config.get<std::string>("Architecture.algorithm", "") +
                     "') is not supported yet; models fine-tuned from ONNX (algorithm: ONNX) export today");

  const TrainerOptions options = trainer_options_from_config(config);
  std::unique_ptr<Task> task = make_task(config, options, torch::kCPU);
  auto* graph = dynamic_cast<OnnxGraphModuleImpl*>(&task->model());
  if (!graph) throw Error("internal: an ONNX architecture built a model that is not an ONNX graph");

  ExportReport r;
  const std::string weights = !options.checkpoints.empty() ? options.checkpoints : options.pretrained_model;
  if (!weights.empty()) {
    load_checkpoint(weights, task->model(), nullptr);  // every tensor must fit: a mismatch names the keys
    r.weights_from = checkpoint_path(weights);
  } else {
    r.weights_from = graph->path();
  }
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir))
    throw Error("Global.save_inference_dir: cannot create '" + out_dir + "': " + (ec ? ec.message() : "not a folder"));
  r.onnx_path = (fs::path(out_dir) / "inference.onnx").string();
  graph->eval();
  graph->save_onnx(r.onnx_path);
  check_onnx_model(r.onnx_path);
  r.parameters = static_cast<long>(graph->parameters().size());
  return r;
}

}  // namespace ocrforge
