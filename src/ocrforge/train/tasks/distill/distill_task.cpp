// What every distillation does alike (distill_task.h).
#include "ocrforge/train/tasks/distill/distill_task.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/distill/distill_member.h"

namespace fs = std::filesystem;

namespace ocrforge {

void DistillTask::build(ModelType kind) {
  const YAML::Node root = config_.root();
  arch_text_ = YAML::Dump(root["Architecture"]);
  const DistillArchSpec arch = distillation_arch_from_yaml(root["Architecture"]);
  if (arch.model_type != kind)
    throw Error(std::string("internal: a ") + model_type_name(kind) + " distillation task on a '" +
                model_type_name(arch.model_type) + "' distillation");
  container_ = std::make_shared<torch::nn::Module>("DistillationModel");
  for (const auto& spec : arch.models) {
    std::string what;
    std::shared_ptr<DistillMember> m = build_member(spec, &what);
    what += prepare_distill_member(*m, warn_random_frozen(*m), &warnings_);
    info_.push_back(spec.name + ": " + what);
    members_.push_back(m);
    container_->register_module(spec.name, m->module());
  }
  used_ = read_loss(root["Loss"], arch.names());

  const YAML::Node post = yaml_child(root, "PostProcess");
  read_postprocess(post);
  arch_yaml::read(post, "model_name", "PostProcess", eval_models_);
  if (eval_models_.empty()) eval_models_ = arch.names();
  for (const auto& name : eval_models_)
    if (!arch.find(name))
      throw UsageError("PostProcess.model_name: '" + name + "' is not a model of Architecture.Models (" +
                       arch_yaml::join(arch.names()) + ")");

  const YAML::Node metric = yaml_child(root, "Metric");
  std::string metric_name = "DistillationMetric", base = base_metric();
  arch_yaml::read(metric, "name", "Metric", metric_name);
  arch_yaml::read(metric, "base_metric_name", "Metric", base);
  if (metric_name != "DistillationMetric")
    throw UsageError("Metric.name: '" + metric_name + "'; a distillation is scored with DistillationMetric "
                     "(base_metric_name: " + base_metric() + ")");
  if (base != base_metric())
    throw UsageError("Metric.base_metric_name: '" + base + "'; a " + model_type_name(kind) +
                     " distillation is scored with " + base_metric());
  metric_key_ = arch.find("Student") ? "Student" : arch.models.front().name;
  arch_yaml::read(metric, "key", "Metric", metric_key_);
  if (!arch.find(metric_key_))
    throw UsageError("Metric.key: '" + metric_key_ + "' is not a model of Architecture.Models (" +
                     arch_yaml::join(arch.names()) + ")");
  if (std::find(eval_models_.begin(), eval_models_.end(), metric_key_) == eval_models_.end())
    eval_models_.insert(eval_models_.begin(), metric_key_);

  bool trains = false;
  for (const auto& name : used_) trains = trains || !member_base(name).spec.freeze_params;
  if (!trains)
    throw UsageError("Loss.loss_config_list: every model the loss reads is frozen (freeze_params: true); nothing "
                     "would train");
  for (const auto& m : members_)
    if (!used_.count(m->spec.name) && !m->spec.freeze_params)
      warnings_.push_back(m->spec.path + ": no loss term reads this model; it will not change");
  to_device(device_);
}

DistillMember& DistillTask::member_base(const std::string& name) const {
  for (const auto& m : members_)
    if (m->spec.name == name) return *m;
  throw Error("internal: no distillation member '" + name + "'");
}

void DistillTask::frozen_scope(DistillMember& m, std::optional<torch::NoGradGuard>& no_grad) {
  if (!m.spec.freeze_params) return;
  no_grad.emplace();
  m.module()->eval();
}

std::optional<float> DistillTask::pinned_l2_decay(const std::string& name) const {
  // Parameters are named "<member>.<its own name>".
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  for (const auto& m : members_)
    if (m->spec.name == name.substr(0, dot)) return member_pinned_l2_decay(*m, name.substr(dot + 1));
  return std::nullopt;
}

void DistillTask::to_device(torch::Device device) {
  device_ = device;
  for (auto& m : members_) m->module()->to(device);
}

EvalMetrics DistillTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  container_->eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  std::map<std::string, std::unique_ptr<DistillScore>> scores;
  for (const auto& name : eval_models_) scores.emplace(name, new_score(member_base(name)));
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  Batch batch;
  while (loader.next(&batch)) {
    const torch::Tensor images = batch.at("image").to(device_);
    for (auto& m : members_) {
      const auto it = scores.find(m->spec.name);
      if (it == scores.end()) continue;
      it->second->add(batch, eval_output(*m, images));
    }
    if (progress) progress(++done, total);
  }
  container_->train();
  EvalMetrics r;
  const DistillScore& key = *scores.at(metric_key_);
  r.values = key.values();
  for (const auto& name : eval_models_) {
    if (name == metric_key_) continue;
    for (const auto& [metric, value] : scores.at(name)->values()) r.values.emplace_back(name + "_" + metric, value);
  }
  r.samples = key.samples();
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

void DistillTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  for (const auto& m : members_) {
    const InferenceFolder f = export_member(config, *m, (fs::path(out_dir) / m->spec.name).string(), report);
    report.members.push_back({m->spec.name, f.onnx_path, f.yml_path});
  }
  report.parameters = static_cast<long>(model().parameters().size());
}

std::string DistillTask::own_weights() const {
  std::string from;
  for (const auto& m : members_) {
    if (m->is_native() && m->spec.pretrained.empty())
      throw UsageError("export of a distillation needs its weights: -o Global.pretrained_model=<save_model_dir>/"
                       "best_accuracy (or Global.checkpoints); " + m->spec.path + " has no pretrained weights either");
    from += (from.empty() ? "" : ", ") + m->spec.name + ": " + (m->is_native() ? m->spec.pretrained : m->onnx_path());
  }
  return "the models' own weights (" + from + ")";
}

}  // namespace ocrforge
