#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/distill/det_distill_task.h"
#include "ocrforge/train/tasks/distill/det_distill_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/distill/det_distill_losses.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/distill/distill_member.h"
#include "ocrforge/train/tasks/det/det_task.h"
#include "ocrforge/vision/det_metric.h"

namespace ocrforge {

namespace {

const char* kMapNames[] = {"shrink", "threshold", "binary"};

}  // namespace

std::shared_ptr<torch::nn::Module> DetDistillMember::module() const {
  if (native) return native.ptr();
  return onnx.ptr();
}

DbPostParams distill_db_post_params_from_yaml(const YAML::Node& n, std::vector<std::string>* models) {
  if (!n || n.IsNull()) return {};
  std::string name;
  arch_yaml::read(n, "name", "PostProcess", name);
  if (name != "DistillationDBPostProcess")
    throw UsageError("PostProcess.name: '" + name + "'; a detection distillation evaluates with "
                     "DistillationDBPostProcess (model_name: [Student], key: head_out, and DBPostProcess's keys)");
  if (models) arch_yaml::read(n, "model_name", "PostProcess", *models);
  // `key` selects an output in PaddleOCR's signature but is not used there:
  // the post-processing reads each model's maps.
  YAML::Node db = YAML::Clone(n);
  db.remove("model_name");
  db.remove("key");
  db["name"] = "DBPostProcess";
  return db_post_params_from_yaml(db);
}

DetDistillTask::DetDistillTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : config_(config), device_(device), seed_(o.seed) {
  const YAML::Node root = config.root();
  arch_text_ = YAML::Dump(root["Architecture"]);
  const DistillArchSpec arch = distillation_arch_from_yaml(root["Architecture"]);
  if (arch.model_type != ModelType::Det)
    throw Error(std::string("internal: DetDistillTask on a '") + model_type_name(arch.model_type) + "' distillation");
  container_ = std::make_shared<torch::nn::Module>("DistillationModel");
  for (const auto& spec : arch.models) {
    members_.push_back(build_member(spec));
    container_->register_module(spec.name, members_.back().module());
  }
  terms_ = det_distill_loss_from_yaml(root["Loss"], arch.names());

  post_ = distill_db_post_params_from_yaml(yaml_child(root, "PostProcess"), &eval_models_);
  if (eval_models_.empty()) eval_models_ = arch.names();
  for (const auto& name : eval_models_)
    if (!arch.find(name))
      throw UsageError("PostProcess.model_name: '" + name + "' is not a model of Architecture.Models (" +
                       arch_yaml::join(arch.names()) + ")");
  const YAML::Node metric = yaml_child(root, "Metric");
  std::string base = "DetMetric";
  arch_yaml::read(metric, "base_metric_name", "Metric", base);
  if (metric && metric.IsMap() && arch_yaml::present(metric, "name") &&
      metric["name"].as<std::string>() != "DistillationMetric")
    throw UsageError("Metric.name: '" + metric["name"].as<std::string>() +
                     "'; a detection distillation is scored with DistillationMetric (base_metric_name: DetMetric)");
  if (base != "DetMetric")
    throw UsageError("Metric.base_metric_name: '" + base + "'; a detection distillation is scored with DetMetric");
  metric_key_ = arch.find("Student") ? "Student" : arch.models.front().name;
  arch_yaml::read(metric, "key", "Metric", metric_key_);
  if (!arch.find(metric_key_))
    throw UsageError("Metric.key: '" + metric_key_ + "' is not a model of Architecture.Models (" +
                     arch_yaml::join(arch.names()) + ")");
  if (std::find(eval_models_.begin(), eval_models_.end(), metric_key_) == eval_models_.end())
    eval_models_.insert(eval_models_.begin(), metric_key_);
  check_terms();
  to_device(device);
}

DetDistillMember DetDistillTask::build_member(const DistillMemberSpec& spec) {
  DetDistillMember m;
  m.spec = spec;
  if (!spec.character_dict_path.empty() || spec.use_space_char)
    throw UsageError(spec.path + ": character_dict_path / use_space_char belong to recognizers, not detectors");
  std::string what;
  if (spec.onnx) {
    OnnxTaskModel t = under_member(spec, [&] { return load_onnx_task_model(spec.arch, "a DB detector (final Sigmoid)"); });
    m.onnx = t.graph;
    m.onnx_logits = t.logits;
    what = "ONNX model " + t.spec.onnx_model + " (shrink map only)";
  } else {
    m.arch = under_member(spec, [&] { return det_arch_from_yaml(spec.arch); });
    m.native = under_member(spec, [&] { return DetModel(m.arch); });
    what = "DB (" + m.arch.backbone.name +
           (m.arch.backbone.name == "ResNet_vd" ? std::to_string(m.arch.backbone.layers) : std::string()) + " + " +
           m.arch.neck.name + " " + std::to_string(m.arch.neck.out_channels) + ")";
  }
  what += prepare_distill_member(spec, *m.module(), /*warn_random_frozen=*/static_cast<bool>(m.native), &warnings_);
  info_.push_back(spec.name + ": " + what);
  return m;
}

void DetDistillTask::check_terms() {
  used_.clear();
  // Channel `c` of `name`'s maps must exist for `t`.
  const auto need_channel = [&](const DetDistillLossTerm& t, const std::string& name, int c) {
    const DetDistillMember& m = member(name);
    used_.insert(name);
    if (c == 0 || m.has_all_maps()) return;
    throw UsageError(t.path + ": reads the " + kMapNames[c] + " map of '" + name + "', which " +
                     (m.onnx ? std::string("an ONNX model (no threshold branch) does not have yet; not yet supported")
                             : std::string("a frozen model (it runs in eval mode) does not compute")) +
                     "; only its shrink map can be compared");
  };
  for (const auto& t : terms_) {
    if (!t.ignored.empty()) {
      std::string keys;
      for (const auto& k : t.ignored) keys += (keys.empty() ? "" : ", ") + k;
      warnings_.push_back(t.path + ": " + keys + " ignored: PaddleOCR builds this term with DBLoss's defaults "
                          "(balance_loss true, DiceLoss, alpha 5, beta 10, ohem_ratio 3), and so does ocrforge");
    }
    if (t.kind == "DistillationDilaDBLoss") {
      for (const auto& [student, teacher] : t.pairs) {
        if (member(student).onnx)
          throw UsageError(t.path + ".model_name_pairs: '" + student + "' is an ONNX model; as the student of "
                           "DistillationDilaDBLoss it would need its binary map, which is not yet supported "
                           "(an ONNX model can be the teacher)");
        need_channel(t, student, 2);
        need_channel(t, teacher, 0);
      }
    } else if (t.kind == "DistillationDMLLoss") {
      for (const auto& [a, b] : t.pairs) {
        need_channel(t, a, t.map_channel());
        need_channel(t, b, t.map_channel());
      }
    } else {
      for (const auto& name : t.models) {
        const DetDistillMember& m = member(name);
        if (m.spec.freeze_params)
          throw UsageError(t.path + ".model_name_list: '" + name + "' is frozen: its own DB loss cannot change it; "
                           "list the models that train");
        used_.insert(name);
      }
    }
  }
  bool trains = false;
  for (const auto& name : used_) trains = trains || !member(name).spec.freeze_params;
  if (!trains)
    throw UsageError("Loss.loss_config_list: every model the loss reads is frozen (freeze_params: true); nothing "
                     "would train");
  for (const auto& m : members_)
    if (!used_.count(m.spec.name) && !m.spec.freeze_params)
      warnings_.push_back(m.spec.path + ": no loss term reads this model; it will not change");
}

const DetDistillMember& DetDistillTask::member(const std::string& name) const {
  for (const auto& m : members_)
    if (m.spec.name == name) return m;
  throw Error("internal: no distillation member '" + name + "'");
}

void DetDistillTask::to_device(torch::Device device) {
  device_ = device;
  for (auto& m : members_) {
    m.module()->to(device);
    if (m.native) m.native->set_channels_last(!device.is_cuda());  // as DetTask: NHWC is faster on CPU
  }
}

std::unique_ptr<BatchLoader> DetDistillTask::make_loader(const std::string& name, bool training, int rank,
                                                         int world_size) {
  return make_det_loader(config_, name, training, rank, world_size, seed_);
}

DetMemberOutput DetDistillTask::run(DetDistillMember& m, const torch::Tensor& images) {
  std::optional<torch::NoGradGuard> no_grad;
  if (m.spec.freeze_params) {
    no_grad.emplace();
    m.module()->eval();  // the trainer's train() reaches every child; a frozen model stays fixed
  }
  DetMemberOutput out;
  if (m.native) {
    out.maps = m.native->forward(images);
  } else if (m.spec.freeze_params || !m.module()->is_training()) {
    out.maps = m.onnx->forward(images);  // the graph ends in the Sigmoid
  } else {
    out.logits = m.onnx->forward(images, m.onnx_logits);
    out.maps = torch::sigmoid(out.logits);
  }
  return out;
}

StepLoss DetDistillTask::train_step(const Batch& batch) {
  const torch::Tensor images = batch.at("image").to(device_);
  std::map<std::string, DetMemberOutput> out;
  for (auto& m : members_)
    if (used_.count(m.spec.name)) out[m.spec.name] = run(m, images);
  const DBTargets targets{batch.at("shrink_map").to(device_), batch.at("shrink_mask").to(device_),
                          batch.at("threshold_map").to(device_), batch.at("threshold_mask").to(device_)};

  StepLoss s;
  torch::Tensor total = torch::zeros({}, images.options());
  bool per_sample_term = false;
  const auto add = [&](const std::string& name, const torch::Tensor& loss, double weight) {
    const torch::Tensor weighted = loss * weight;
    s.parts.emplace_back(name, weighted.item<double>());
    total = total + weighted;
  };
  const auto channel = [&](const std::string& name, int c) { return out.at(name).maps.select(1, c); };
  for (const auto& t : terms_) {
    if (t.kind == "DistillationDilaDBLoss") {
      for (const auto& [student, teacher] : t.pairs)
        add(t.name + "_" + student + "_" + teacher,
            dila_db_loss(channel(student, 0), channel(student, 2), channel(teacher, 0), targets.shrink_mask, t.db), t.weight);
    } else if (t.kind == "DistillationDMLLoss") {
      for (size_t i = 0; i < t.pairs.size(); ++i) {
        const auto& [a, b] = t.pairs[i];
        const int c = t.map_channel();
        torch::Tensor loss;
        if (t.use_log) {
          loss = dml_loss(channel(a, c), channel(b, c), t.act, /*use_log=*/true);  // PaddleOCR: a batch-mean scalar
        } else {
          loss = dml_maps_per_sample(channel(a, c), channel(b, c), t.act).mean();
          per_sample_term = true;
        }
        add(t.name + "_" + t.maps_name + "_" + std::to_string(i), loss, t.weight);
      }
    } else {
      for (const auto& name : t.models) {
        const DetMemberOutput& o = out.at(name);
        const DBLossParts parts = o.logits.defined() ? db_loss_.probability_map_only(o.logits, targets)
                                                     : db_loss_(o.maps, targets);
        for (const auto& [part, value] : parts.named())
          if (part != "loss") {
            const torch::Tensor weighted = value * t.weight;
            s.parts.emplace_back(t.name + "_" + name + "_" + part, weighted.item<double>());
          }
        total = total + parts.loss * t.weight;
      }
    }
  }
  if (per_sample_term) {
    // PaddleOCR's total is then a batch-sized vector whose backward() is
    // seeded with ones: the gradient of batch-size x the mean. Same value
    // here, same gradient.
    const double n = static_cast<double>(images.size(0));
    s.loss = total * n - total.detach() * (n - 1.0);
  } else {
    s.loss = total;
  }
  s.output = out.count(metric_key_) ? out.at(metric_key_).maps : torch::Tensor();
  return s;
}

EvalMetrics DetDistillTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  container_->eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  std::map<std::string, DetMetric> metrics;
  for (const auto& name : eval_models_) metrics.emplace(name, DetMetric());
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  long images = 0;
  Batch batch;
  while (loader.next(&batch)) {
    const torch::Tensor x = batch.at("image").to(device_);
    long added = 0;
    for (auto& m : members_) {
      if (!metrics.count(m.spec.name)) continue;
      added = add_det_eval_batch(batch, run(m, x).maps, post_, metrics.at(m.spec.name));
    }
    images += added;
    if (progress) progress(++done, total);
  }
  container_->train();
  EvalMetrics r;
  const DetMetric& key = metrics.at(metric_key_);
  r.values = {{"precision", key.precision()}, {"recall", key.recall()}, {"hmean", key.hmean()}};
  for (const auto& name : eval_models_) {
    if (name == metric_key_) continue;
    const DetMetric& m = metrics.at(name);
    r.values.emplace_back(name + "_precision", m.precision());
    r.values.emplace_back(name + "_recall", m.recall());
    r.values.emplace_back(name + "_hmean", m.hmean());
  }
  r.samples = images;
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

std::string DetDistillTask::own_weights() const { return distill_members_own_weights(members_); }

void DetDistillTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  export_det_distillation(config, *this, out_dir, report);
  report.parameters = static_cast<long>(model().parameters().size());
}

bool det_distill_task_takes(const TaskKey& k) { return k.model_type == ModelType::Det && k.distillation; }

std::unique_ptr<Task> make_det_distill_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<DetDistillTask>(config, options, device);
}

}  // namespace ocrforge
