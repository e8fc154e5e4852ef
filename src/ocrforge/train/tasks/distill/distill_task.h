// Distillation (PaddleOCR's DistillationModel) as one training task: several
// models of one kind, each native or a deployed ONNX graph, trained side by
// side on one data pipeline with a CombinedLoss of terms that compare them.
//
// What every distillation does alike is built here once: reading
// Architecture.Models (distillation_arch.h), each member's own `pretrained`
// weights and freezing (distill_member.h), the members as the children of one
// module named as under Models (checkpoint keys "Teacher.backbone...",
// "Student.head..."), PostProcess.model_name and PaddleOCR's
// DistillationMetric (the `Metric.key` model's metric, the others' prefixed
// with their name: "Teacher_acc"), the check that some member trains, device
// moves, frozen members running in eval mode without autograd, evaluation
// and one inference folder per member (OUT/<name>/, as PaddleOCR writes
// OUT/Student/).
//
// What a kind of model brings is a subclass's: how a member is built and
// run, the loss terms, the per-member metric, the member's inference folder
// and the data. Recognition: rec_distill_task.h; detection (CML):
// det_distill_task.h. Each kind has its line in tasks/task_registry.cpp.
#pragma once
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ocrforge/train/loop/checkpoint_part.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"
#include "ocrforge/train/tasks/task.h"

namespace ocrforge {

class Config;
struct InferenceFolder;

// One model of a distillation; a kind's member type adds its network.
struct DistillMember {
  DistillMemberSpec spec;
  virtual ~DistillMember() = default;
  // The member's network (native or ONNX graph), a child of the task's module.
  virtual std::shared_ptr<torch::nn::Module> module() const = 0;
  // True for a network built here (it needs weights to export), false for an ONNX graph.
  virtual bool is_native() const = 0;
  // The ONNX file of an ONNX member ("" for a native one).
  virtual std::string onnx_path() const = 0;
  // Loads the member's `pretrained` weights from `path`: by default a
  // checkpoint or .pdparams (of the whole distillation, keys under
  // `key_prefix`, or of the model alone); a kind may also read other files
  // (a recognizer: PaddleOCR's inference.onnx).
  virtual PretrainedReport load_pretrained(const std::string& path, const std::string& key_prefix);
};

// One evaluated member's metric over an evaluation epoch.
class DistillScore {
 public:
  virtual ~DistillScore() = default;
  // Adds one batch given the member's evaluation output on it.
  virtual void add(const Batch& batch, const torch::Tensor& output) = 0;
  // The metric in log order, unprefixed ("acc", "norm_edit_dis").
  virtual NamedValues values() const = 0;
  virtual long samples() const = 0;
};

class DistillTask : public Task {
 public:
  torch::nn::Module& model() override { return *container_; }
  std::string architecture_text() const override { return arch_text_; }
  std::optional<float> pinned_l2_decay(const std::string& param_name) const override;
  // Moves every member; a kind adds its memory format (overriding and calling this).
  void to_device(torch::Device device) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  std::vector<std::string> startup_warnings() const override { return warnings_; }
  std::vector<std::string> startup_info() const override { return info_; }
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  // Each native member needs its own `pretrained` (UsageError naming it otherwise).
  std::string own_weights() const override;

  const std::string& metric_key() const { return metric_key_; }

 protected:
  DistillTask(const Config& config, torch::Device device) : config_(config), device_(device) {}

  // Builds everything from the config; the kind's constructor calls it once
  // its own fields are set (it calls the hooks below).
  void build(ModelType kind);

  // A new member built from `spec` (network only: build() loads its
  // pretrained weights and freezes it); `what` gets its startup words
  // ("DB (MobileNetV3 + DBFPN 96)").
  virtual std::shared_ptr<DistillMember> build_member(const DistillMemberSpec& spec, std::string* what) = 0;
  // True when a frozen member without pretrained weights deserves a warning.
  virtual bool warn_random_frozen(const DistillMember& m) const = 0;
  // Reads Loss and checks its terms against the members; returns the members
  // a term reads (what trains).
  virtual std::set<std::string> read_loss(const YAML::Node& loss, const std::vector<std::string>& names) = 0;
  // Reads the kind's own PostProcess keys (model_name is read here).
  virtual void read_postprocess(const YAML::Node& /*postprocess*/) {}
  // Metric.base_metric_name this kind scores with ("RecMetric", "DetMetric").
  virtual std::string base_metric() const = 0;
  virtual std::optional<float> member_pinned_l2_decay(const DistillMember& /*m*/, const std::string& /*param*/) const {
    return std::nullopt;
  }
  // What evaluation scores of member `m` on `images` (the container is in
  // eval mode without autograd).
  virtual torch::Tensor eval_output(DistillMember& m, const torch::Tensor& images) = 0;
  virtual std::unique_ptr<DistillScore> new_score(const DistillMember& m) const = 0;
  // Writes member `m`'s inference folder `dir`; notes into `report`.
  virtual InferenceFolder export_member(const Config& config, const DistillMember& m, const std::string& dir,
                                        ExportReport& report) = 0;

  // Call before running a member: a frozen one goes to eval mode (the
  // trainer's train() reaches every child) and runs without autograd.
  static void frozen_scope(DistillMember& m, std::optional<torch::NoGradGuard>& no_grad);
  // The member called `name` (Error when there is none: names are checked
  // against Architecture.Models when the config is read).
  DistillMember& member_base(const std::string& name) const;
  const std::vector<std::shared_ptr<DistillMember>>& member_list() const { return members_; }
  bool reads(const std::string& name) const { return used_.count(name) > 0; }

  const Config& config_;
  torch::Device device_{torch::kCPU};
  std::vector<std::string> warnings_, info_;

 private:
  std::string arch_text_;
  std::vector<std::shared_ptr<DistillMember>> members_;
  std::shared_ptr<torch::nn::Module> container_;
  std::set<std::string> used_;            // members a loss term reads
  std::vector<std::string> eval_models_;  // PostProcess.model_name (default: all), metric key first
  std::string metric_key_;
};

}  // namespace ocrforge
