// The text direction classifier as a training task: the native network of
// PaddleOCR's cls configs (algorithm CLS: a recognition backbone + ClsHead,
// cls_model.h) or a deployed ONNX classifier (algorithm ONNX,
// onnx/onnx_arch.h). Cross entropy (PaddleOCR's ClsLoss) on the logits,
// accuracy of the argmax (ClsMetric).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/cls/cls_model.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace YAML {
class Node;
}

namespace ocrforge {

class ClsTask : public Task {
 public:
  // Reads Global.label_list (default ['0', '180']) and Architecture. The
  // model's class count must equal the label list's (UsageError otherwise).
  ClsTask(const Config& config, const TrainerSpec& options, torch::Device device);

  torch::nn::Module& model() override;
  std::string architecture_text() const override { return arch_text_; }
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  MetricSums train_metrics(const Batch& batch, const StepLoss& step) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  void report_eval_samples(EvalSampleSink sink) override { sample_sink_ = std::move(sink); }
  std::string default_main_indicator() const override { return "acc"; }
  std::vector<std::string> startup_info() const override { return info_; }
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  std::string own_weights() const override;
  InferenceForward inference_forward(const Config& config, const std::string& checkpoint,
                                     const std::string& flag) override;

  const std::vector<std::string>& label_list() const { return label_list_; }
  OnnxGraphModule onnx_model() const { return onnx_; }  // null for a native network
  ClsModel native_model() const { return native_; }      // null for an ONNX classifier

 private:
  void load_onnx(const YAML::Node& arch);
  // A batch's images and labels, an SSLRotateResize batch's turns flattened
  // into it (turns: images per file, 1 otherwise).
  struct Flat {
    torch::Tensor images, labels;
    int64_t turns = 1;
  };
  Flat flat(const Batch& batch) const;
  torch::Tensor logits(const torch::Tensor& images);  // N x classes
  // Gives each sample of `batch` to sample_sink_ (labels named by label_list_).
  void report_samples(const Batch& batch, const torch::Tensor& predicted, const torch::Tensor& prob,
                      const torch::Tensor& hit) const;

  const Config& config_;
  EvalSampleSink sample_sink_;
  std::vector<std::string> label_list_;
  std::string arch_text_;
  OnnxGraphModule onnx_{nullptr};
  std::string onnx_logits_;
  ClsModel native_{nullptr};
  std::vector<std::string> info_;
  torch::Device device_{torch::kCPU};
  uint64_t seed_ = 1024;
};

// Train.dataset.transforms' SSLRotateResize (PP-OCRv3's rotnet): its
// select_all (true: four turns, false: 0 and 180); nothing without one.
std::optional<bool> ssl_rotate_select_all(const Config& config);

// The registry's line for ClsTask (task_registry.cpp): Architecture.model_type cls (algorithm CLS or ONNX).
bool cls_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_cls_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
