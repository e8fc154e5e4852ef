// DB text detection as a training task: DetModel (MobileNetV3 / ResNet_vd +
// DBFPN / RSEFPN + DBHead) or a deployed ONNX DB detector (algorithm ONNX:
// DBLoss::probability_map_only on the map before its final Sigmoid), the det
// data pipeline (det_dataset.h), DBLoss, and evaluation with the inference DB
// post-processing (vision/) and DetMetric (precision / recall / hmean).
#pragma once
#include "ocrforge/train/tasks/det/db_loss.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "ocrforge/vision/db_postprocess.h"
#include "ocrforge/vision/det_metric.h"

namespace ocrforge {

class DetTask : public Task {
 public:
  // Reads Architecture, Loss (DBLoss), PostProcess (DBPostProcess).
  DetTask(const Config& config, const TrainerSpec& options, torch::Device device);

  torch::nn::Module& model() override;
  // Also PaddleOCR's inference.onnx of a PPLCNetV3 + RSEFPN detector (det_paddle_onnx.h).
  PretrainedReport load_pretrained_weights(const std::string& path) override;
  std::string architecture_text() const override { return arch_text_; }
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  std::string default_main_indicator() const override { return "hmean"; }
  std::vector<std::string> startup_info() const override { return info_; }

  const DbPostParams& postprocess() const { return post_; }
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  std::string own_weights() const override;
  InferenceForward inference_forward(const Config& config, const std::string& checkpoint,
                                     const std::string& flag) override;
  DetModel det_model() const { return model_; }       // null for algorithm ONNX
  OnnxGraphModule onnx_model() const { return onnx_; }  // null for native models

 private:
  // Probability maps N x 1 x H x W of a batch (eval), on device_.
  torch::Tensor probability_maps(const torch::Tensor& images);

  const Config& config_;
  DetArchSpec arch_;
  std::string arch_text_;
  DetModel model_{nullptr};
  OnnxGraphModule onnx_{nullptr};
  std::string onnx_logits_;  // the ONNX graph's pre-sigmoid map
  std::vector<std::string> info_;
  DBLoss loss_;
  DbPostParams post_;
  torch::Device device_{torch::kCPU};
  uint64_t seed_ = 1024;
};

// The det data pipeline as a loader (what DetTask::make_loader returns):
// training batches carry image + the four label maps, evaluation batches the
// image and, in `extras`, the ground truth add_det_eval_batch reads.
std::unique_ptr<BatchLoader> make_det_loader(const Config& config, const std::string& section, bool training,
                                             int rank, int world_size, uint64_t seed);

// Scores one evaluation batch: `maps` (N x C x H x W, channel 0 the shrink
// probabilities) through the inference DB post-processing into `metric`.
// Returns the number of images added.
long add_det_eval_batch(const Batch& batch, const torch::Tensor& maps, const DbPostParams& post, DetMetric& metric);

// PostProcess {name: DBPostProcess, thresh, box_thresh, max_candidates,
// unclip_ratio, use_dilation, score_mode, box_type} -> the inference
// pipeline's parameters (one post-processing for eval and `ocrforge ocr`).
DbPostParams db_post_params_from_yaml(const YAML::Node& postprocess);

// The registry's line for DetTask (task_registry.cpp): Architecture.model_type det, algorithm DB (the default) or ONNX.
bool det_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_det_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
