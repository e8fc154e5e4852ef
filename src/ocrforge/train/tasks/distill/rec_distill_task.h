// Recognition distillation (PaddleOCR's PP-OCRv3 rec recipe) as a training
// task: several recognizers (models/distillation_arch.h; each native or a
// deployed ONNX graph) trained side by side on one data pipeline, with a
// CombinedLoss of mutual-learning, feature-distance and per-model CTC terms
// (models/distill_loss_spec.h) and PaddleOCR's DistillationMetric: the
// `Metric.key` model's acc / norm_edit_dis, the others' prefixed with their
// name ("Teacher_acc").
//
// The members are the children of one module, named as under Models, so
// checkpoint keys read "Teacher.backbone.conv1._conv.weight" and
// "Student.head.fc.weight", as PaddleOCR names them.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/distill/distill_loss_spec.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace ocrforge {

// One recognizer of the distillation.
struct RecDistillMember {
  DistillMemberSpec spec;
  Charset charset;              // its classes: Global's dictionary unless it has its own
  bool own_dictionary = false;  // character_dict_path / use_space_char given for it
  RecArchSpec arch;             // native members
  RecModel native{nullptr};
  OnnxGraphModule onnx{nullptr};
  std::string onnx_logits;      // ONNX members: the value before the final Softmax
  std::shared_ptr<torch::nn::Module> module() const;
};

class RecDistillTask : public Task {
 public:
  // Reads Architecture (Distillation), Loss (CombinedLoss), Metric
  // (DistillationMetric.key), PostProcess.model_name and Global's dictionary.
  RecDistillTask(const Config& config, const TrainerSpec& options, torch::Device device);

  torch::nn::Module& model() override { return *container_; }
  std::string architecture_text() const override { return arch_text_; }
  std::optional<float> pinned_l2_decay(const std::string& name) const override;
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  MetricSums train_metrics(const Batch& batch, const StepLoss& step) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  std::string default_main_indicator() const override { return "acc"; }
  std::vector<std::string> startup_warnings() const override { return warnings_; }
  std::vector<std::string> startup_info() const override { return info_; }
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  std::string own_weights() const override;

  const std::vector<RecDistillMember>& members() const { return members_; }
  const RecDistillMember& member(const std::string& name) const;
  const std::string& metric_key() const { return metric_key_; }
  const Charset& charset() const { return charset_; }

 private:
  RecDistillMember build_member(const DistillMemberSpec& spec);
  void check_terms();
  // All features of one member on a batch (the SAR branch too when `sar` is
  // given); frozen members run in eval mode without autograd.
  RecForward run(RecDistillMember& m, const torch::Tensor& images, const SarTargets* sar = nullptr);
  // UsageError unless member `name` has a SARHead (a term at `path` reads it).
  void require_sar(const std::string& name, const std::string& path) const;
  // The logits of `a` as compared with `b`: restricted to the classes both
  // dictionaries hold when they differ (blank first).
  torch::Tensor shared_classes(const std::string& a, const std::string& b, const torch::Tensor& logits_a) const;

  const Config& config_;
  Charset charset_;  // Global's: the labels' encoding
  std::string arch_text_;
  std::vector<RecDistillMember> members_;
  std::shared_ptr<torch::nn::Module> container_;
  std::vector<DistillLossTerm> terms_;
  std::set<std::string> used_;  // members a loss term reads
  std::set<std::string> sar_used_;  // members whose SAR branch a loss term reads
  std::map<std::string, torch::Tensor> shared_index_;  // "a|b" -> class indices of a shared with b
  std::vector<std::string> eval_models_;  // PostProcess.model_name (default: all)
  std::string metric_key_;
  std::vector<std::string> warnings_, info_;
  torch::Device device_{torch::kCPU};
  int max_text_length_ = 25;
  uint64_t seed_ = 1024;
  bool ignore_space_ = true;
};

// The registry's line for RecDistillTask (task_registry.cpp): Architecture.algorithm Distillation of recognizers.
bool rec_distill_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_rec_distill_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
