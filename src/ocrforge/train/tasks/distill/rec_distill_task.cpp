#include "ocrforge/core/model_type.h"
#include "ocrforge/train/tasks/distill/rec_distill_task.h"
#include "ocrforge/train/tasks/distill/rec_distill_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <set>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/tasks/rec/rec_evaluator.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/tasks/rec/sar_loss.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/rec/onnx_rec_probe.h"
#include "ocrforge/train/tasks/distill/distill_member.h"
#include "ocrforge/train/tasks/rec/rec_task.h"
#include "ocrforge/vision/rec_metric.h"

namespace ocrforge {

namespace {

bool same_classes(const Charset& a, const Charset& b) {
  if (a.num_classes() != b.num_classes()) return false;
  for (int i = 1; i < a.num_classes(); ++i)
    if (a.text_of(i) != b.text_of(i)) return false;
  return true;
}


}  // namespace

std::shared_ptr<torch::nn::Module> RecDistillMember::module() const {
  if (native) return native.ptr();
  return onnx.ptr();
}

RecDistillTask::RecDistillTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : config_(config), device_(device) {
  if (o.character_dict_path.empty()) throw UsageError("Global.character_dict_path is required for recognition");
  charset_ = Charset::load(o.character_dict_path, o.use_space_char, "Global.character_dict_path");
  max_text_length_ = o.max_text_length;
  seed_ = o.seed;
  ignore_space_ = o.ignore_space;
  const YAML::Node root = config.root();
  arch_text_ = YAML::Dump(root["Architecture"]);
  const DistillArchSpec arch = distillation_arch_from_yaml(root["Architecture"]);
  if (arch.model_type != ModelType::Rec)
    throw Error(std::string("internal: RecDistillTask on a '") + model_type_name(arch.model_type) + "' distillation");
  container_ = std::make_shared<torch::nn::Module>("DistillationModel");
  for (const auto& spec : arch.models) {
    members_.push_back(build_member(spec));
    container_->register_module(spec.name, members_.back().module());
  }
  terms_ = distill_loss_from_yaml(root["Loss"], arch.names());

  arch_yaml::read(yaml_child(root, "PostProcess"), "model_name", "PostProcess", eval_models_);
  if (eval_models_.empty()) eval_models_ = arch.names();
  for (const auto& name : eval_models_)
    if (!arch.find(name))
      throw UsageError("PostProcess.model_name: '" + name + "' is not a model of Architecture.Models");
  metric_key_ = arch.find("Student") ? "Student" : arch.models.front().name;
  arch_yaml::read(yaml_child(root, "Metric"), "key", "Metric", metric_key_);
  std::string base_metric = "RecMetric";
  arch_yaml::read(yaml_child(root, "Metric"), "base_metric_name", "Metric", base_metric);
  if (base_metric != "RecMetric")
    throw UsageError("Metric.base_metric_name: '" + base_metric + "'; a recognition distillation is scored with RecMetric");
  if (!arch.find(metric_key_))
    throw UsageError("Metric.key: '" + metric_key_ + "' is not a model of Architecture.Models");
  if (std::find(eval_models_.begin(), eval_models_.end(), metric_key_) == eval_models_.end())
    eval_models_.insert(eval_models_.begin(), metric_key_);
  check_terms();
  to_device(device);
}

RecDistillMember RecDistillTask::build_member(const DistillMemberSpec& spec) {
  RecDistillMember m;
  m.spec = spec;
  m.charset = charset_;
  if (!spec.character_dict_path.empty() || spec.use_space_char) {
    const std::string dict = spec.character_dict_path.empty() ? config_.get<std::string>("Global.character_dict_path", "")
                                                              : spec.character_dict_path;
    const bool space = spec.use_space_char.value_or(config_.get<bool>("Global.use_space_char", true));
    m.charset = Charset::load(dict, space, spec.path + ".character_dict_path");
    m.own_dictionary = !same_classes(m.charset, charset_);
  }
  std::string what;
  if (spec.onnx) {
    OnnxTaskModel t = under_member(spec, [&] { return load_onnx_task_model(spec.arch, "a CTC recognizer (final Softmax)"); });
    m.onnx = t.graph;
    m.onnx_logits = t.logits;
    check_dictionary_fits(m.charset, probe_onnx_rec_classes(m.onnx, m.onnx_logits, t.spec.onnx_model),
                          t.spec.onnx_model, m.own_dictionary ? spec.path + ".character_dict_path"
                                                              : "Global.character_dict_path");
    what = "ONNX model " + t.spec.onnx_model;
  } else {
    m.arch = under_member(spec, [&] { return rec_arch_from_yaml(spec.arch, m.charset.num_classes()); });
    const std::string guide = drop_guide_without_branch(m.arch, spec.path);
    if (!guide.empty()) warnings_.push_back(guide);
    const std::string heads = dropped_heads_warning(m.arch, spec.path);
    if (!heads.empty()) warnings_.push_back(heads);
    m.native = under_member(spec, [&] { return RecModel(m.arch); });
    what = m.arch.algorithm + " (" + m.arch.backbone.name + ", " + m.arch.neck.encoder_type + " neck)";
  }
  what += ", " + std::to_string(m.charset.num_classes()) + " classes";
  what += prepare_distill_member(spec, *m.module(), /*warn_random_frozen=*/false, &warnings_);
  info_.push_back(spec.name + ": " + what);
  return m;
}

void RecDistillTask::require_sar(const std::string& name, const std::string& path) const {
  const RecDistillMember& m = member(name);
  if (m.onnx)
    throw UsageError(path + ": '" + name + "' is an ONNX model, which has no SAR branch (it gives head_out of the CTC "
                     "branch only)");
  if (!m.arch.sar)
    throw UsageError(path + ": '" + name + "' has no SAR branch: its Head must be a MultiHead with a SARHead entry (" +
                     m.spec.path + ".Head)");
}

void RecDistillTask::check_terms() {
  used_.clear();
  sar_used_.clear();
  for (const auto& t : terms_) {
    const bool sar_term = t.kind == "DistillationSARLoss" || (t.kind == "DistillationDMLLoss" && t.dis_head == "sar");
    for (const auto& name : t.models) {
      if (member(name).own_dictionary)
        throw UsageError(t.path + ".model_name_list: '" + name + "' has its own dictionary, but the labels are "
                         "encoded with Global.character_dict_path; its " + (sar_term ? "SAR" : "CTC") +
                         " loss cannot be computed");
      if (sar_term) {
        require_sar(name, t.path + ".model_name_list");
        sar_ignore_index(*member(name).arch.sar, t.ignore_index, t.path);
        sar_used_.insert(name);
      }
      used_.insert(name);
    }
    for (const auto& [a, b] : t.pairs) {
      used_.insert(a);
      used_.insert(b);
      if (sar_term) {
        // DML over the two SAR outputs (PaddleOCR's dis_head: sar): the same
        // classes and steps, since the labels that drive both decoders are one.
        for (const auto* name : {&a, &b}) {
          require_sar(*name, t.path + ".model_name_pairs");
          sar_used_.insert(*name);
        }
        if (!same_classes(member(a).charset, member(b).charset))
          throw UsageError(t.path + ": dis_head: sar compares '" + a + "' and '" + b + "', whose dictionaries differ; "
                           "the SAR outputs can only be compared over one dictionary (use dis_head: ctc)");
        continue;
      }
      if (t.key != "head_out") {
        for (const auto* name : {&a, &b})
          if (member(*name).onnx)
            throw UsageError(t.path + ".key: " + t.key + " of '" + *name + "', an ONNX model, is not available "
                             "(an ONNX member gives head_out only)");
        continue;
      }
      const Charset& ca = member(a).charset;
      const Charset& cb = member(b).charset;
      if (same_classes(ca, cb)) continue;
      // Compare the distributions over the characters both models know.
      // A character listed twice (en_dict.txt has a space line and
      // use_space_char adds one) is compared once, at the index its labels
      // use (the last, charset.h), or its probability would count twice.
      std::vector<int64_t> ia{0}, ib{0};
      std::set<int> taken;
      for (int i = 1; i < ca.num_classes(); ++i) {
        if (ca.index_of(ca.text_of(i)) != i) continue;
        const int j = cb.index_of(ca.text_of(i));
        if (j > 0 && taken.insert(j).second) {
          ia.push_back(i);
          ib.push_back(j);
        }
      }
      if (ia.size() < 2)
        throw UsageError(t.path + ": '" + a + "' and '" + b + "' share no character of their dictionaries");
      shared_index_[a + "|" + b] = torch::tensor(ia, torch::kLong);
      shared_index_[b + "|" + a] = torch::tensor(ib, torch::kLong);
      info_.push_back(t.path + ": " + a + " (" + std::to_string(ca.num_classes()) + " classes) and " + b + " (" +
                      std::to_string(cb.num_classes()) + ") are compared over the " + std::to_string(ia.size()) +
                      " classes they share (blank and common characters)");
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
  for (const auto& m : members_) {
    if (!m.arch.sar) continue;
    if (sar_used_.count(m.spec.name)) {
      // The <PAD> index the SAR terms ignore (each term checked its own ignore_index above).
      info_.push_back(sar_branch_info(m.native, m.arch.sar->out_channels - 1, m.spec.path));
    } else if (!m.spec.freeze_params) {
      warnings_.push_back(m.spec.path + ": no loss term reads its SARHead (DistillationSARLoss, or DistillationDMLLoss "
                          "with dis_head: sar), so that branch does not train" +
                          (m.arch.neck.use_guide ? "; with use_guide: True its backbone learns only from terms on "
                                                   "backbone_out" : ""));
    }
  }
}

const RecDistillMember& RecDistillTask::member(const std::string& name) const {
  for (const auto& m : members_)
    if (m.spec.name == name) return m;
  throw Error("internal: no distillation member '" + name + "'");
}

std::optional<float> RecDistillTask::pinned_l2_decay(const std::string& name) const {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string who = name.substr(0, dot);
  for (const auto& m : members_)
    if (m.spec.name == who && m.native) return m.native->pinned_l2_decay(name.substr(dot + 1));
  return std::nullopt;
}

void RecDistillTask::to_device(torch::Device device) {
  device_ = device;
  for (auto& m : members_) {
    m.module()->to(device);
    // NHWC on CPU for native models, as RecTask (docs/benchmarks.md).
    if (m.native) m.native->set_channels_last(!device.is_cuda());
  }
  for (auto& [key, index] : shared_index_) index = index.to(device);
}

std::unique_ptr<BatchLoader> RecDistillTask::make_loader(const std::string& name, bool training, int rank,
                                                         int world_size) {
  return make_rec_loader(config_, name, training, rank, world_size, charset_, max_text_length_, seed_,
                         training && !sar_used_.empty(), training ? &info_ : nullptr);
}

RecForward RecDistillTask::run(RecDistillMember& m, const torch::Tensor& images, const SarTargets* sar) {
  std::optional<torch::NoGradGuard> no_grad;
  if (m.spec.freeze_params) {
    no_grad.emplace();
    m.module()->eval();  // the trainer's train() reaches every child; a frozen model stays fixed
  }
  if (m.native) return m.native->forward_all(images, sar);
  RecForward f;
  f.logits = m.onnx->forward(images, m.onnx_logits);
  return f;
}

torch::Tensor RecDistillTask::shared_classes(const std::string& a, const std::string& b,
                                             const torch::Tensor& logits_a) const {
  const auto it = shared_index_.find(a + "|" + b);
  return it == shared_index_.end() ? logits_a : logits_a.index_select(-1, it->second);
}

StepLoss RecDistillTask::train_step(const Batch& batch) {
  const torch::Tensor images = batch.at("image").to(device_);
  SarTargets sar;
  if (!sar_used_.empty()) sar = {batch.at("label_sar").to(device_), batch.at("valid_ratio").to(device_)};
  std::map<std::string, RecForward> out;
  for (auto& m : members_) {
    const bool read = used_.count(m.spec.name) > 0;
    if (!read && m.spec.name != metric_key_) continue;
    std::optional<torch::NoGradGuard> no_grad;
    if (!read) no_grad.emplace();  // run for the training metric only
    out[m.spec.name] = run(m, images, sar_used_.count(m.spec.name) ? &sar : nullptr);
  }
  const torch::Tensor labels = batch.at("label").to(device_), lengths = batch.at("length").to(device_);

  StepLoss s;
  torch::Tensor total = torch::zeros({}, images.options());
  const auto add = [&](const std::string& name, const torch::Tensor& loss, double weight) {
    const torch::Tensor weighted = loss * weight;
    s.parts.emplace_back(name, weighted.item<double>());
    total = total + weighted;
  };
  for (const auto& t : terms_) {
    for (size_t i = 0; i < t.models.size(); ++i) {
      const std::string& name = t.models[i];
      const torch::Tensor loss =
          t.kind == "DistillationSARLoss"
              ? sar_loss(out[name].sar_logits, sar.label_sar,
                         sar_ignore_index(*member(name).arch.sar, t.ignore_index, t.path))
              : ctc_loss(out[name].logits, labels, lengths, false);
      add(t.name + "_" + name + "_" + std::to_string(i), loss, t.weight);
    }
    for (size_t i = 0; i < t.pairs.size(); ++i) {
      const auto& [a, b] = t.pairs[i];
      if (t.kind == "DistillationDMLLoss" && t.dis_head == "sar") {
        // PaddleOCR's DML on head_out["sar"]: both teacher-forced SAR outputs, N x L x classes.
        add(t.name + "_" + std::to_string(i), dml_loss(out[a].sar_logits, out[b].sar_logits, t.act, t.use_log),
            t.weight);
      } else if (t.kind == "DistillationDMLLoss") {
        const torch::Tensor la = shared_classes(a, b, out[a].logits), lb = shared_classes(b, a, out[b].logits);
        if (la.size(1) != lb.size(1))
          throw UsageError(t.path + ": '" + a + "' reads " + std::to_string(la.size(1)) + " time steps but '" + b +
                           "' " + std::to_string(lb.size(1)) + "; DML needs models with the same output length "
                           "(the same input width and horizontal stride)");
        add(t.name + "_" + std::to_string(i), dml_loss(la, lb, t.act, t.use_log), t.weight);
      } else {
        const auto feature = [&](const std::string& who, const std::string& other) {
          const RecForward& f = out[who];
          if (t.key == "backbone_out") return f.backbone_out;
          if (t.key == "neck_out") return f.neck_out;
          return shared_classes(who, other, f.logits);
        };
        add(t.name + "_" + a + "_" + b + "_" + std::to_string(i), distance_loss(feature(a, b), feature(b, a), t.mode),
            t.weight);
      }
    }
  }
  s.loss = total;
  s.output = out[metric_key_].logits;
  return s;
}

MetricSums RecDistillTask::train_metrics(const Batch& batch, const StepLoss& step) {
  RecMetric m(ignore_space_);
  const auto texts = decode_logits(step.output, member(metric_key_).charset);
  for (size_t i = 0; i < texts.size(); ++i) m.add(texts[i], batch.texts[i]);
  const double n = static_cast<double>(m.count());
  return {{"acc", "norm_edit_dis"}, {m.acc() * n, m.norm_edit_dis() * n}, n};
}

EvalMetrics RecDistillTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  container_->eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  std::map<std::string, RecMetric> metrics;
  for (const auto& name : eval_models_) metrics.emplace(name, RecMetric(ignore_space_));
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  Batch batch;
  while (loader.next(&batch)) {
    const torch::Tensor images = batch.at("image").to(device_);
    for (auto& m : members_) {
      if (!metrics.count(m.spec.name)) continue;
      const auto texts = decode_logits(run(m, images).logits, m.charset);
      for (size_t i = 0; i < texts.size(); ++i) metrics.at(m.spec.name).add(texts[i], batch.texts[i]);
    }
    if (progress) progress(++done, total);
  }
  container_->train();
  EvalMetrics r;
  const RecMetric& key = metrics.at(metric_key_);
  r.values = {{"acc", key.acc()}, {"norm_edit_dis", key.norm_edit_dis()}};
  for (const auto& name : eval_models_) {
    if (name == metric_key_) continue;
    r.values.emplace_back(name + "_acc", metrics.at(name).acc());
    r.values.emplace_back(name + "_norm_edit_dis", metrics.at(name).norm_edit_dis());
  }
  r.samples = key.count();
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

std::string RecDistillTask::own_weights() const { return distill_members_own_weights(members_); }

void RecDistillTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  export_rec_distillation(config, *this, out_dir, report);
  report.parameters = static_cast<long>(model().parameters().size());
}

bool rec_distill_task_takes(const TaskKey& k) { return k.model_type == ModelType::Rec && k.distillation; }

std::unique_ptr<Task> make_rec_distill_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<RecDistillTask>(config, options, device);
}

}  // namespace ocrforge
