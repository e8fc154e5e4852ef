// Detectors in a distillation (det_distill_task.h).
#include "ocrforge/train/tasks/distill/det_distill_task.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/tasks/distill/det_distill_losses.h"
#include "ocrforge/train/tasks/distill/distill_losses.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/export/inference_folder.h"
#include "ocrforge/train/tasks/distill/det_distill_export.h"
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

DbPostParams distill_db_post_params_from_yaml(const YAML::Node& n) {
  if (!n || n.IsNull()) return {};
  std::string name;
  arch_yaml::read(n, "name", "PostProcess", name);
  if (name != "DistillationDBPostProcess")
    throw UsageError("PostProcess.name: '" + name + "'; a detection distillation evaluates with "
                     "DistillationDBPostProcess (model_name: [Student], key: head_out, and DBPostProcess's keys)");
  // `key` selects an output in PaddleOCR's signature but is not used there:
  // the post-processing reads each model's maps.
  YAML::Node db = YAML::Clone(n);
  db.remove("model_name");
  db.remove("key");
  db["name"] = "DBPostProcess";
  return db_post_params_from_yaml(db);
}

DetDistillTask::DetDistillTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : DistillTask(config, device), seed_(o.seed) {
  build(ModelType::Det);
}

void DetDistillTask::read_postprocess(const YAML::Node& postprocess) {
  post_ = distill_db_post_params_from_yaml(postprocess);
}

std::shared_ptr<DistillMember> DetDistillTask::build_member(const DistillMemberSpec& spec, std::string* what) {
  auto m = std::make_shared<DetDistillMember>();
  m->spec = spec;
  if (!spec.character_dict_path.empty() || spec.use_space_char)
    throw UsageError(spec.path + ": character_dict_path / use_space_char belong to recognizers, not detectors");
  if (spec.onnx) {
    OnnxTaskModel t = under_member(spec, [&] { return load_onnx_task_model(spec.arch, "a DB detector (final Sigmoid)"); });
    m->onnx = t.graph;
    m->onnx_logits = t.logits;
    *what = "ONNX model " + t.spec.onnx_model + " (shrink map only)";
  } else {
    m->arch = under_member(spec, [&] { return det_arch_from_yaml(spec.arch); });
    m->native = under_member(spec, [&] { return DetModel(m->arch); });
    *what = "DB (" + m->arch.backbone.name +
            (m->arch.backbone.name == "ResNet_vd" || m->arch.backbone.name == "ResNet" ? std::to_string(m->arch.backbone.layers) : std::string()) + " + " +
            m->arch.neck.name + " " + std::to_string(m->arch.neck.out_channels) + ")";
  }
  return m;
}

std::set<std::string> DetDistillTask::read_loss(const YAML::Node& loss, const std::vector<std::string>& names) {
  terms_ = det_distill_loss_from_yaml(loss, names);
  std::set<std::string> used;
  // Channel `c` of `name`'s maps must exist for `t`.
  const auto need_channel = [&](const DetDistillLossTerm& t, const std::string& name, int c) {
    const DetDistillMember& m = member(name);
    used.insert(name);
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
        used.insert(name);
      }
    }
  }
  return used;
}

std::vector<const DetDistillMember*> DetDistillTask::members() const {
  std::vector<const DetDistillMember*> all;
  for (const auto& m : member_list()) all.push_back(static_cast<const DetDistillMember*>(m.get()));
  return all;
}

// Every member is built by build_member: a DetDistillMember.
const DetDistillMember& DetDistillTask::member(const std::string& name) const {
  return static_cast<const DetDistillMember&>(member_base(name));
}

void DetDistillTask::to_device(torch::Device device) {
  DistillTask::to_device(device);
  for (const auto& p : member_list()) {
    auto& m = static_cast<DetDistillMember&>(*p);
    if (m.native) m.native->set_channels_last(!device.is_cuda());  // as DetTask: NHWC is faster on CPU
  }
}

std::unique_ptr<BatchLoader> DetDistillTask::make_loader(const std::string& name, bool training, int rank,
                                                         int world_size) {
  return make_det_loader(config_, name, training, rank, world_size, seed_);
}

DetMemberOutput DetDistillTask::run(DetDistillMember& m, const torch::Tensor& images) {
  std::optional<torch::NoGradGuard> no_grad;
  frozen_scope(m, no_grad);
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
  for (const auto& p : member_list())
    if (reads(p->spec.name)) out[p->spec.name] = run(static_cast<DetDistillMember&>(*p), images);
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
  s.output = out.count(metric_key()) ? out.at(metric_key()).maps : torch::Tensor();
  return s;
}

namespace {

// DetMetric of one member's boxes after the distillation's DB post-processing.
class DetDistillScore : public DistillScore {
 public:
  explicit DetDistillScore(const DbPostParams& post) : post_(post) {}
  void add(const Batch& batch, const torch::Tensor& maps) override {
    images_ += add_det_eval_batch(batch, maps, post_, metric_);
  }
  NamedValues values() const override {
    return {{"precision", metric_.precision()}, {"recall", metric_.recall()}, {"hmean", metric_.hmean()}};
  }
  long samples() const override { return images_; }

 private:
  const DbPostParams& post_;
  DetMetric metric_;
  long images_ = 0;
};

}  // namespace

torch::Tensor DetDistillTask::eval_output(DistillMember& m, const torch::Tensor& images) {
  return run(static_cast<DetDistillMember&>(m), images).maps;
}

std::unique_ptr<DistillScore> DetDistillTask::new_score(const DistillMember&) const {
  return std::make_unique<DetDistillScore>(post_);
}

InferenceFolder DetDistillTask::export_member(const Config& config, const DistillMember& m, const std::string& dir,
                                              ExportReport&) {
  return export_det_distill_member(config, static_cast<const DetDistillMember&>(m), dir);
}

bool det_distill_task_takes(const TaskKey& k) { return k.model_type == ModelType::Det && k.distillation; }

std::unique_ptr<Task> make_det_distill_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<DetDistillTask>(config, options, device);
}

}  // namespace ocrforge
