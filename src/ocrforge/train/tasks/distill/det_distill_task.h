// Detection distillation (PaddleOCR's PP-OCRv3 CML recipe): the detectors'
// part of the one distillation task (distill_task.h). Each member is a
// native DetModel or a deployed ONNX DB graph; the CombinedLoss has
// DistillationDilaDBLoss (a teacher's dilated shrink map as each student's
// label), DistillationDMLLoss on maps (mutual learning between the students)
// and DistillationDBLoss (each student's DBLoss on the ground truth),
// det_distill_loss_spec.h; evaluation is PaddleOCR's
// DistillationDBPostProcess + DetMetric (precision, recall, hmean); each
// member exports as a det inference folder (det_distill_export.h).
//
// Gradient scale: PaddleOCR's DML term on maps is a per-sample vector, so
// its total loss is one and backward() seeds it with ones: every gradient is
// batch-size times that of the logged (mean) loss. With such a term the loss
// here carries the same gradient (its value is still the logged total), so
// PaddleOCR's hyper-parameters (e.g. the L2 factor next to Adam) carry over.
#pragma once
#include <memory>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "ocrforge/train/tasks/det/db_loss.h"
#include "ocrforge/train/tasks/distill/det_distill_loss_spec.h"
#include "ocrforge/train/tasks/det/det_model.h"
#include "ocrforge/train/tasks/distill/distill_task.h"
#include "ocrforge/train/onnx/onnx_graph_module.h"
#include "ocrforge/train/tasks/task_registry.h"
#include "ocrforge/vision/db_postprocess.h"

namespace ocrforge {

// One detector of the distillation.
struct DetDistillMember : DistillMember {
  DetArchSpec arch;             // native members
  DetModel native{nullptr};
  OnnxGraphModule onnx{nullptr};
  std::string onnx_logits;      // ONNX members: the map before the final Sigmoid
  std::shared_ptr<torch::nn::Module> module() const override;
  bool is_native() const override { return static_cast<bool>(native); }
  std::string onnx_path() const override { return onnx ? onnx->path() : std::string(); }
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

class DetDistillTask : public DistillTask {
 public:
  // Reads Architecture (Distillation, model_type det), Loss (CombinedLoss),
  // PostProcess (DistillationDBPostProcess) and Metric (DistillationMetric,
  // base_metric_name DetMetric).
  DetDistillTask(const Config& config, const TrainerSpec& options, torch::Device device);

  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  std::string default_main_indicator() const override { return "hmean"; }
  void to_device(torch::Device device) override;

  std::vector<const DetDistillMember*> members() const;
  const DetDistillMember& member(const std::string& name) const;
  const DbPostParams& postprocess() const { return post_; }

 private:
  std::shared_ptr<DistillMember> build_member(const DistillMemberSpec& spec, std::string* what) override;
  // A native detector frozen with its random weights is worth a warning.
  bool warn_random_frozen(const DistillMember& m) const override { return m.is_native(); }
  std::set<std::string> read_loss(const YAML::Node& loss, const std::vector<std::string>& names) override;
  void read_postprocess(const YAML::Node& postprocess) override;
  std::string base_metric() const override { return "DetMetric"; }
  torch::Tensor eval_output(DistillMember& m, const torch::Tensor& images) override;
  std::unique_ptr<DistillScore> new_score(const DistillMember& m) const override;
  InferenceFolder export_member(const Config& config, const DistillMember& m, const std::string& dir,
                                ExportReport& report) override;
  // Frozen members run in eval mode without autograd.
  DetMemberOutput run(DetDistillMember& m, const torch::Tensor& images);

  std::vector<DetDistillLossTerm> terms_;
  DBLoss db_loss_;  // DBLoss's defaults, as PaddleOCR's Distillation*DBLoss
  DbPostParams post_;
  uint64_t seed_ = 1024;
};

// PostProcess {name: DistillationDBPostProcess, model_name, key, thresh, ...}
// -> the DB post-processing of every evaluated model (db_post_params_from_yaml
// reads the DB keys; model_name is the distillation's, distill_task.h).
DbPostParams distill_db_post_params_from_yaml(const YAML::Node& postprocess);

// The registry's line for DetDistillTask (task_registry.cpp): Architecture.algorithm Distillation of detectors (CML).
bool det_distill_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_det_distill_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
