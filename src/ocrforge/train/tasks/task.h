// What differs between the training tasks (recognition, detection,
// classification, distillation): the model, the data, how a batch becomes a
// loss, how a model is evaluated and exported. The trainer loop (loop/trainer.h), its
// schedule, the communicator, checkpoints and the loader know no task.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/export/export_report.h"

namespace ocrforge {

class Config;
struct TrainerSpec;
struct PretrainedReport;

// Named values in log order ("acc", "norm_edit_dis"; "precision", "recall", "hmean").
using NamedValues = std::vector<std::pair<std::string, double>>;

// The loss of one training step and its parts for the log.
struct StepLoss {
  torch::Tensor loss;       // scalar, what backward() runs on
  NamedValues parts;        // e.g. {"loss_shrink_maps", 0.4}; "loss" itself is logged by the loop
  torch::Tensor output;     // the model output (detached use only: training metrics)
};

// Training metrics of one step as per-sample sums, so the communicator can
// add them over ranks and the log shows the metric of the whole global batch:
// metric i = sums[i] / count over all ranks.
struct MetricSums {
  std::vector<std::string> names;
  std::vector<double> sums;
  double count = 0;
};

struct EvalMetrics {
  NamedValues values;  // in log order
  long samples = 0;
  double seconds = 0;
  // The value called `name`; Error listing the known names when absent.
  double get(const std::string& name) const;
};

// One evaluated sample, for `ocrforge eval --save_wrong`: the image, its label,
// what the model read and how sure it was (rec: the CTC score, the mean
// probability of the kept steps; cls: the probability of the predicted class).
// `correct` is what the task's accuracy counted.
struct EvalSample {
  std::string path, label, prediction;
  float score = 0.f;
  bool correct = false;
};
using EvalSampleSink = std::function<void(const EvalSample&)>;

class Task {
 public:
  virtual ~Task() = default;

  // The network (its parameters are optimised, averaged over ranks, saved).
  virtual torch::nn::Module& model() = 0;
  // Text that identifies the architecture, stored in checkpoints.
  virtual std::string architecture_text() const = 0;
  // L2 factor pinned on one parameter by the model definition (PaddleOCR's
  // ParamAttr), overriding Optimizer.regularizer.factor; nullopt: the config's.
  virtual std::optional<float> pinned_l2_decay(const std::string& /*param_name*/) const { return std::nullopt; }
  // Global.pretrained_model: copies what fits into model() and reports the
  // rest. The default reads an ocrforge checkpoint or a .pdparams file
  // (loop/checkpoint.h); rec and det also read PaddleOCR's inference.onnx.
  virtual PretrainedReport load_pretrained_weights(const std::string& path);
  // Moves the model to `device` and picks its memory format there.
  virtual void to_device(torch::Device device) = 0;

  // Train / Eval loader of the config section `section` ("Train" / "Eval").
  // rank/world_size: this rank's shard for training (distributed sampler).
  virtual std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                                   int world_size) = 0;

  // Forward + loss of one batch (model in training mode).
  virtual StepLoss train_step(const Batch& batch) = 0;
  // Training metrics of that step (Global.cal_metric_during_train), or none.
  virtual MetricSums train_metrics(const Batch& /*batch*/, const StepLoss& /*step*/) { return {}; }

  // Evaluates the current weights over one epoch of `loader` (the model is
  // put in eval mode and back). `progress(done, total)` after each batch.
  virtual EvalMetrics evaluate(BatchLoader& loader,
                               const std::function<void(size_t, size_t)>& progress = nullptr) = 0;
  // From now on every sample evaluate() scores is also given to `sink` (an
  // empty sink stops it). The default refuses: UsageError naming the tasks
  // that report samples (recognition and classification).
  virtual void report_eval_samples(EvalSampleSink sink);
  // Metric.main_indicator's default for this task (rec: acc, det: hmean).
  virtual std::string default_main_indicator() const = 0;
  // Throws UsageError when the configuration cannot be trained (checked
  // before training only; evaluation may still run).
  virtual void check_trainable() const {}
  // Warnings the trainer should log once at start (e.g. heads not built).
  virtual std::vector<std::string> startup_warnings() const { return {}; }
  // Facts the trainer logs once at start (e.g. what was frozen).
  virtual std::vector<std::string> startup_info() const { return {}; }

  // `ocrforge export`: writes the current weights (model in eval mode) as
  // inference folder(s) under `out_dir` (export/inference_folder.h) and
  // fills `report`'s paths, parameter count and notes.
  virtual void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) = 0;
  // The export's weights when it is given no checkpoint: a description for
  // the report ("the ONNX file's own weights"), or UsageError when the task
  // has none of its own (a native network: kNativeExportNeedsWeights).
  virtual std::string own_weights() const = 0;

  // How inference runs the current weights when a checkpoint is read
  // without exporting it (tasks/task_networks.h): the forward that gives what
  // the exported model outputs, and its declared input / output shapes (-1:
  // dynamic). The default refuses (a distillation holds several models):
  // UsageError telling how to export `checkpoint` and use `flag` on it.
  struct InferenceForward {
    std::function<torch::Tensor(const torch::Tensor&)> forward;
    std::vector<int64_t> input_shape, output_shape;
  };
  virtual InferenceForward inference_forward(const Config& config, const std::string& checkpoint,
                                             const std::string& flag);
};

// make_task (tasks/task_registry.h) picks the task of a config.

}  // namespace ocrforge
