// Recognition distillation (PaddleOCR's PP-OCRv3 and PP-OCRv4 rec recipes):
// the recognizers' part of the one distillation task (distill_task.h). Each
// member is a native recognizer (rec_model.h) or a deployed ONNX graph, with
// Global's dictionary or its own; the CombinedLoss has mutual-learning,
// feature-distance, DKD, CTC-logit and per-model CTC / SAR / NRTR terms
// (distill_loss_spec.h); each
// evaluated member is scored with RecMetric (acc, norm_edit_dis); each
// exports as a rec inference folder with plain CTC decoding and its own
// dictionary.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/distill/distill_loss_spec.h"
#include "ocrforge/train/tasks/distill/distill_task.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace ocrforge {

// One recognizer of the distillation.
struct RecDistillMember : DistillMember {
  Charset charset;              // its classes: Global's dictionary unless it has its own
  bool own_dictionary = false;  // character_dict_path / use_space_char given for it
  RecArchSpec arch;             // native members
  RecModel native{nullptr};
  OnnxGraphModule onnx{nullptr};
  std::string onnx_logits;      // ONNX members: the value before the final Softmax
  std::shared_ptr<torch::nn::Module> module() const override;
  bool is_native() const override { return static_cast<bool>(native); }
  std::string onnx_path() const override { return onnx ? onnx->path() : std::string(); }
  // Also PaddleOCR's inference.onnx for a native member (rec_paddle_onnx.h):
  // the member is then built in its inference form (build_member).
  PretrainedReport load_pretrained(const std::string& path, const std::string& key_prefix) override;
};

class RecDistillTask : public DistillTask {
 public:
  // Reads Architecture (Distillation), Loss (CombinedLoss), Metric
  // (DistillationMetric.key), PostProcess.model_name and Global's dictionary.
  RecDistillTask(const Config& config, const TrainerSpec& options, torch::Device device);

  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  MetricSums train_metrics(const Batch& batch, const StepLoss& step) override;
  std::string default_main_indicator() const override { return "acc"; }
  void to_device(torch::Device device) override;

  std::vector<const RecDistillMember*> members() const;
  const RecDistillMember& member(const std::string& name) const;
  const Charset& charset() const { return charset_; }

 private:
  std::shared_ptr<DistillMember> build_member(const DistillMemberSpec& spec, std::string* what) override;
  bool warn_random_frozen(const DistillMember&) const override { return false; }
  std::set<std::string> read_loss(const YAML::Node& loss, const std::vector<std::string>& names) override;
  std::string base_metric() const override { return "RecMetric"; }
  std::optional<float> member_pinned_l2_decay(const DistillMember& m, const std::string& param) const override;
  torch::Tensor eval_output(DistillMember& m, const torch::Tensor& images) override;
  std::unique_ptr<DistillScore> new_score(const DistillMember& m) const override;
  InferenceFolder export_member(const Config& config, const DistillMember& m, const std::string& dir,
                                ExportReport& report) override;
  // All features of one member on a batch (the SAR branch too when `sar` is
  // given); frozen members run in eval mode without autograd.
  RecForward run(RecDistillMember& m, const torch::Tensor& images, const SarTargets* sar = nullptr,
                 const NrtrTargets* nrtr = nullptr);
  // UsageError unless member `name` has a SARHead (a term at `path` reads it).
  void require_sar(const std::string& name, const std::string& path) const;
  // UsageError unless member `name` is native with an NRTRHead (a term at `path` reads it).
  void require_nrtr(const std::string& name, const std::string& path) const;
  // The logits of `a` as compared with `b`: restricted to the classes both
  // dictionaries hold when they differ (blank first).
  torch::Tensor shared_classes(const std::string& a, const std::string& b, const torch::Tensor& logits_a) const;

  Charset charset_;  // Global's: the labels' encoding
  std::vector<DistillLossTerm> terms_;
  std::set<std::string> sar_used_;  // members whose SAR branch a loss term reads
  // Members whose NRTR branch a loss term reads (the others are built without
  // it), found in the Loss section before the members are built.
  std::set<std::string> gtc_used_;
  std::map<std::string, torch::Tensor> shared_index_;  // "a|b" -> class indices of a shared with b
  int max_text_length_ = 25;
  uint64_t seed_ = 1024;
  bool ignore_space_ = true;
};

// The registry's line for RecDistillTask (task_registry.cpp): Architecture.algorithm Distillation of recognizers.
bool rec_distill_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_rec_distill_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
