// Recognizers in a distillation (rec_distill_task.h).
#include "ocrforge/train/tasks/distill/rec_distill_task.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <set>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/tasks/rec/rec_evaluator.h"
#include "ocrforge/train/tasks/rec/rec_input_size.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/rec/ctc_loss.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/tasks/distill/rec_distill_export.h"
#include "ocrforge/train/tasks/rec/sar_loss.h"
#include "ocrforge/train/tasks/rec/nrtr_loss.h"
#include "ocrforge/train/tasks/distill/distillation_arch.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/rec/onnx_rec_probe.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/tasks/rec/rec_task.h"
#include "ocrforge/train/tasks/rec/rec_paddle_onnx.h"
#include "ocrforge/train/tasks/inference_file_weights.h"
#include "ocrforge/train/loop/checkpoint.h"
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

PretrainedReport RecDistillMember::load_pretrained(const std::string& path, const std::string& key_prefix) {
  if (!native || !is_inference_onnx_file(path)) return DistillMember::load_pretrained(path, key_prefix);
  return report_loaded(*native, load_rec_paddle_onnx(*native, path));
}

std::shared_ptr<torch::nn::Module> RecDistillMember::module() const {
  if (native) return native.ptr();
  return onnx.ptr();
}

RecDistillTask::RecDistillTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : DistillTask(config, device) {
  if (o.character_dict_path.empty()) throw UsageError("Global.character_dict_path is required for recognition");
  charset_ = Charset::load(o.character_dict_path, o.use_space_char, "Global.character_dict_path");
  max_text_length_ = o.max_text_length;
  seed_ = o.seed;
  ignore_space_ = o.ignore_space;
  // Which members keep their NRTR branch is decided before they are built.
  const std::vector<std::string> names = distillation_arch_from_yaml(config.root()["Architecture"]).names();
  for (const DistillLossTerm& t : distill_loss_from_yaml(config.root()["Loss"], names)) {
    if (!t.reads_gtc()) continue;
    gtc_used_.insert(t.models.begin(), t.models.end());
    for (const auto& [a, b] : t.pairs) gtc_used_.insert({a, b});
  }
  build(ModelType::Rec);
}

std::shared_ptr<DistillMember> RecDistillTask::build_member(const DistillMemberSpec& spec, std::string* what) {
  auto m = std::make_shared<RecDistillMember>();
  m->spec = spec;
  m->charset = charset_;
  if (!spec.character_dict_path.empty() || spec.use_space_char) {
    const std::string dict = spec.character_dict_path.empty() ? config_.get<std::string>("Global.character_dict_path", "")
                                                              : spec.character_dict_path;
    const bool space = spec.use_space_char.value_or(config_.get<bool>("Global.use_space_char", true));
    m->charset = Charset::load(dict, space, spec.path + ".character_dict_path");
    m->own_dictionary = !same_classes(m->charset, charset_);
  }
  if (spec.onnx) {
    OnnxTaskModel t = under_member(spec, [&] { return load_onnx_task_model(spec.arch, "a CTC recognizer (final Softmax)"); });
    m->onnx = t.graph;
    m->onnx_logits = t.logits;
    check_dictionary_fits(m->charset, probe_onnx_rec_classes(m->onnx, m->onnx_logits, t.spec.onnx_model),
                          t.spec.onnx_model, m->own_dictionary ? spec.path + ".character_dict_path"
                                                               : "Global.character_dict_path");
    *what = "ONNX model " + t.spec.onnx_model;
  } else {
    m->arch = under_member(spec, [&] { return rec_arch_from_yaml(spec.arch, m->charset.num_classes()); });
    check_fixed_input_size(m->arch.backbone, config_.root(), spec.path + ".Backbone");
    if (!gtc_used_.count(spec.name)) drop_nrtr_branch(m->arch);  // no loss term reads it
    if (m->arch.backbone.name == "PPLCNetV3" && !spec.pretrained.empty() && is_inference_onnx_file(spec.pretrained)) {
      m->arch.backbone.rep_deploy = true;  // the file's fused form (nn/pplcnet_v3.h)
      info_.push_back(inference_form_info(spec.path + ".Backbone PPLCNetV3", "a PaddleOCR inference.onnx"));
    }
    const std::string guide = drop_guide_without_branch(m->arch, spec.path);
    if (!guide.empty()) warnings_.push_back(guide);
    const std::string heads = dropped_heads_warning(m->arch, spec.path);
    if (!heads.empty()) warnings_.push_back(heads);
    m->native = under_member(spec, [&] { return RecModel(m->arch); });
    *what = m->arch.algorithm + " (" + m->arch.backbone.name + ", " + m->arch.neck.encoder_type + " neck)";
  }
  *what += ", " + std::to_string(m->charset.num_classes()) + " classes";
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

void RecDistillTask::require_nrtr(const std::string& name, const std::string& path) const {
  const RecDistillMember& m = member(name);
  if (m.onnx)
    throw UsageError(path + ": '" + name + "' is an ONNX model, which has no NRTR branch (it gives head_out of the "
                     "CTC branch only)");
  if (!m.arch.nrtr)
    throw UsageError(path + ": '" + name + "' has no NRTR branch: its Head must be a MultiHead with an NRTRHead "
                     "entry (" + m.spec.path + ".Head)");
}

std::set<std::string> RecDistillTask::read_loss(const YAML::Node& loss, const std::vector<std::string>& names) {
  terms_ = distill_loss_from_yaml(loss, names);
  std::set<std::string> used;
  sar_used_.clear();
  for (const auto& t : terms_) {
    if (t.reads_gtc()) {
      for (const auto& name : t.models) {
        if (member(name).own_dictionary)
          throw UsageError(t.path + ".model_name_list: '" + name + "' has its own dictionary, but label_gtc is "
                           "encoded with Global.character_dict_path; its NRTR loss cannot be computed");
        require_nrtr(name, t.path + ".model_name_list");
        used.insert(name);
      }
      for (const auto& [a, b] : t.pairs) {
        require_nrtr(a, t.path + ".model_name_pairs");
        require_nrtr(b, t.path + ".model_name_pairs");
        if (member(a).arch.nrtr->out_channels != member(b).arch.nrtr->out_channels || member(a).own_dictionary ||
            member(b).own_dictionary)
          throw UsageError(t.path + ": '" + a + "' and '" + b + "' must decode Global.character_dict_path's "
                           "classes with their NRTR branches (label_gtc is the target of both)");
        used.insert(a);
        used.insert(b);
      }
      continue;
    }
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
      used.insert(name);
    }
    for (const auto& [a, b] : t.pairs) {
      used.insert(a);
      used.insert(b);
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
  for (const RecDistillMember* p : members()) {
    const RecDistillMember& m = *p;
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
  return used;
}

std::vector<const RecDistillMember*> RecDistillTask::members() const {
  std::vector<const RecDistillMember*> all;
  for (const auto& m : member_list()) all.push_back(static_cast<const RecDistillMember*>(m.get()));
  return all;
}

// Every member is built by build_member: a RecDistillMember.
const RecDistillMember& RecDistillTask::member(const std::string& name) const {
  return static_cast<const RecDistillMember&>(member_base(name));
}

std::optional<float> RecDistillTask::member_pinned_l2_decay(const DistillMember& m, const std::string& param) const {
  const auto& r = static_cast<const RecDistillMember&>(m);
  return r.native ? r.native->pinned_l2_decay(param) : std::nullopt;
}

void RecDistillTask::to_device(torch::Device device) {
  DistillTask::to_device(device);
  // NHWC on CPU for native models, as RecTask (docs/benchmarks.md).
  for (const auto& p : member_list()) {
    auto& m = static_cast<RecDistillMember&>(*p);
    if (m.native) m.native->set_channels_last(!device.is_cuda());
  }
  for (auto& [key, index] : shared_index_) index = index.to(device);
}

std::unique_ptr<BatchLoader> RecDistillTask::make_loader(const std::string& name, bool training, int rank,
                                                         int world_size) {
  if (training && !sar_used_.empty() && !gtc_used_.empty())
    throw UsageError("Loss.loss_config_list: terms on the SAR branch and on the NRTR branch in one run; "
                     "MultiLabelEncode makes label_sar or label_gtc, not both");
  const std::string guide = !training ? "" : !gtc_used_.empty() ? "label_gtc" : !sar_used_.empty() ? "label_sar" : "";
  return make_rec_loader(config_, name, training, rank, world_size, charset_, max_text_length_, seed_, guide,
                         training ? &info_ : nullptr);
}

RecForward RecDistillTask::run(RecDistillMember& m, const torch::Tensor& images, const SarTargets* sar,
                               const NrtrTargets* nrtr) {
  std::optional<torch::NoGradGuard> no_grad;
  frozen_scope(m, no_grad);
  if (m.native) return m.native->forward_all(images, sar, nrtr);
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
  NrtrTargets nrtr;
  if (!gtc_used_.empty()) nrtr = {batch.at("label_gtc").to(device_), batch.at("length").to(device_)};
  std::map<std::string, RecForward> out;
  for (const auto& p : member_list()) {
    auto& m = static_cast<RecDistillMember&>(*p);
    const bool read = reads(m.spec.name);
    if (!read && m.spec.name != metric_key()) continue;
    std::optional<torch::NoGradGuard> no_grad;
    if (!read) no_grad.emplace();  // run for the training metric only
    out[m.spec.name] = run(m, images, sar_used_.count(m.spec.name) ? &sar : nullptr,
                           gtc_used_.count(m.spec.name) && read ? &nrtr : nullptr);
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
          : t.kind == "DistillationNRTRLoss" ? nrtr_loss(out[name].nrtr_logits, nrtr.label_gtc, nrtr.length, t.smoothing)
                                             : ctc_loss(out[name].logits, labels, lengths, false);
      add(t.name + "_" + name + "_" + std::to_string(i), loss, t.weight);
    }
    for (size_t i = 0; i < t.pairs.size(); ++i) {
      const auto& [a, b] = t.pairs[i];
      if (t.kind == "DistillationDKDLoss") {
        // PaddleOCR's target: label_gtc[:, 1 : max(length) + 2], one class per NRTR output step.
        const int64_t steps = out[a].nrtr_logits.size(1);
        const torch::Tensor target = nrtr.label_gtc.slice(1, 1, 1 + steps);
        add(t.name + "_" + std::to_string(i),
            dkd_loss(out[a].nrtr_logits, out[b].nrtr_logits, target, t.temperature, t.alpha, t.beta), t.weight);
      } else if (t.kind == "DistillCTCLogits") {
        add(t.name + "_" + std::to_string(i),
            ctc_logits_kl(shared_classes(a, b, out[a].logits), shared_classes(b, a, out[b].logits)), t.weight);
      } else if (t.kind == "DistillationDMLLoss" && t.dis_head == "sar") {
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
  s.output = out[metric_key()].logits;
  return s;
}

MetricSums RecDistillTask::train_metrics(const Batch& batch, const StepLoss& step) {
  RecMetric m(ignore_space_);
  const auto texts = decode_logits(step.output, member(metric_key()).charset);
  for (size_t i = 0; i < texts.size(); ++i) m.add(texts[i], batch.texts[i]);
  const double n = static_cast<double>(m.count());
  return {{"acc", "norm_edit_dis"}, {m.acc() * n, m.norm_edit_dis() * n}, n};
}

namespace {

// RecMetric of one member: its CTC decoding with its own dictionary.
class RecDistillScore : public DistillScore {
 public:
  RecDistillScore(const Charset& charset, bool ignore_space) : charset_(charset), metric_(ignore_space) {}
  void add(const Batch& batch, const torch::Tensor& logits) override {
    const auto texts = decode_logits(logits, charset_);
    for (size_t i = 0; i < texts.size(); ++i) metric_.add(texts[i], batch.texts[i]);
  }
  NamedValues values() const override { return {{"acc", metric_.acc()}, {"norm_edit_dis", metric_.norm_edit_dis()}}; }
  long samples() const override { return metric_.count(); }

 private:
  const Charset& charset_;
  RecMetric metric_;
};

}  // namespace

torch::Tensor RecDistillTask::eval_output(DistillMember& m, const torch::Tensor& images) {
  return run(static_cast<RecDistillMember&>(m), images).logits;
}

std::unique_ptr<DistillScore> RecDistillTask::new_score(const DistillMember& m) const {
  return std::make_unique<RecDistillScore>(static_cast<const RecDistillMember&>(m).charset, ignore_space_);
}

InferenceFolder RecDistillTask::export_member(const Config& config, const DistillMember& m, const std::string& dir,
                                              ExportReport& report) {
  return export_rec_distill_member(config, static_cast<const RecDistillMember&>(m), dir, report);
}

bool rec_distill_task_takes(const TaskKey& k) { return k.model_type == ModelType::Rec && k.distillation; }

std::unique_ptr<Task> make_rec_distill_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<RecDistillTask>(config, options, device);
}

}  // namespace ocrforge
