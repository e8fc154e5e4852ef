// Detection distillation (PaddleOCR's PP-OCRv3 CML recipe) as a training
// task: several DB detectors (models/distillation_arch.h; each a native
// DetModel or a deployed ONNX DB graph) trained side by side on one det data
// pipeline, with a CombinedLoss of DistillationDilaDBLoss (a teacher's
// dilated shrink map as each student's label), DistillationDMLLoss on maps
// (mutual learning between the students) and DistillationDBLoss (each
// student's DBLoss on the ground truth), models/det_distill_loss_spec.h; and
// PaddleOCR's DistillationDBPostProcess + DistillationMetric(DetMetric): the
// `Metric.key` model's precision / recall / hmean, the others of
// PostProcess.model_name prefixed with their name ("Student2_hmean").
//
// The members are the children of one module, named as under Models, so
// checkpoint keys read "Teacher.backbone.conv1_1._conv.weight",
// "Student.head.binarize.conv1.weight", as PaddleOCR names them.
//
// Gradient scale: PaddleOCR's DML term on maps is a per-sample vector, so
// its total loss is one and backward() seeds it with ones: every gradient is
// batch-size times that of the logged (mean) loss. With such a term the loss
// here carries the same gradient (its value is still the logged total), so
// PaddleOCR's hyper-parameters (e.g. the L2 factor next to Adam) carry over.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/train/tasks/det/db_loss.h"
#include "ocrforge/train/tasks/distill/det_distill_loss_spec.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "ocrforge/vision/db_postprocess.h"

namespace ocrforge {

// One detector of the distillation.
struct DetDistillMember {
  DistillMemberSpec spec;
  DetArchSpec arch;             // native members
  DetModel native{nullptr};
  OnnxGraphModule onnx{nullptr};
  std::string onnx_logits;      // ONNX members: the map before the final Sigmoid
  std::shared_ptr<torch::nn::Module> module() const;
  // True when a training step gives all three maps (shrink, threshold,
  // binary): a native model that trains. A frozen model runs in eval mode
  // and an ONNX graph has no threshold branch: shrink map only.
  bool has_all_maps() const { return native && !spec.freeze_params; }
};

// One member's output on a batch.
struct DetMemberOutput {
  torch::Tensor maps;    // N x 3 x H x W, or N x 1 x H x W (shrink only, see has_all_maps)
  torch::Tensor logits;  // trainable ONNX members: the pre-sigmoid N x 1 x H x W map
};

class DetDistillTask : public Task {
 public:
  // Reads Architecture (Distillation, model_type det), Loss (CombinedLoss),
  // PostProcess (DistillationDBPostProcess) and Metric (DistillationMetric,
  // base_metric_name DetMetric).
  DetDistillTask(const Config& config, const TrainerSpec& options, torch::Device device);

  torch::nn::Module& model() override { return *container_; }
  std::string architecture_text() const override { return arch_text_; }
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  std::string default_main_indicator() const override { return "hmean"; }
  std::vector<std::string> startup_warnings() const override { return warnings_; }
  std::vector<std::string> startup_info() const override { return info_; }
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  std::string own_weights() const override;

  const std::vector<DetDistillMember>& members() const { return members_; }
  const DetDistillMember& member(const std::string& name) const;
  const std::string& metric_key() const { return metric_key_; }
  const DbPostParams& postprocess() const { return post_; }

 private:
  DetDistillMember build_member(const DistillMemberSpec& spec);
  void check_terms();
  // Frozen members run in eval mode without autograd.
  DetMemberOutput run(DetDistillMember& m, const torch::Tensor& images);

  const Config& config_;
  std::string arch_text_;
  std::vector<DetDistillMember> members_;
  std::shared_ptr<torch::nn::Module> container_;
  std::vector<DetDistillLossTerm> terms_;
  DBLoss db_loss_;                        // DBLoss's defaults, as PaddleOCR's Distillation*DBLoss
  std::set<std::string> used_;            // members a loss term reads
  std::vector<std::string> eval_models_;  // PostProcess.model_name (default: all)
  std::string metric_key_;
  DbPostParams post_;
  std::vector<std::string> warnings_, info_;
  torch::Device device_{torch::kCPU};
  uint64_t seed_ = 1024;
};

// PostProcess {name: DistillationDBPostProcess, model_name, key, thresh, ...}
// -> the DB post-processing of every evaluated model (db_post_params_from_yaml
// reads the DB keys); model_name into *models when given.
DbPostParams distill_db_post_params_from_yaml(const YAML::Node& postprocess, std::vector<std::string>* models);

// The registry's line for DetDistillTask (task_registry.cpp): Architecture.algorithm Distillation of detectors (CML).
bool det_distill_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_det_distill_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
