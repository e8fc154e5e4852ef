#include "ocrforge/train/tasks/cls/cls_task.h"
#include "ocrforge/train/export/inference_folder.h"

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/tasks/cls/cls_data_config.h"
#include "ocrforge/train/tasks/cls/cls_model_onnx.h"
#include "ocrforge/train/export/export_report.h"
#include "ocrforge/train/nn/arch_yaml.h"
#include "ocrforge/train/dist/distributed_sampler.h"
#include "ocrforge/train/loop/trainer_spec.h"

namespace ocrforge {

ClsTask::ClsTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : config_(config), device_(device), seed_(o.seed) {
  label_list_ = config.get<std::vector<std::string>>("Global.label_list", {"0", "180"});
  if (label_list_.size() < 2) throw UsageError("Global.label_list needs at least two labels, e.g. ['0', '180']");
  const std::optional<bool> ssl_all = ssl_rotate_select_all(config);
  if (ssl_all) {
    // PP-OCRv3's rotnet: the classes are the turns SSLRotateResize makes, whatever Global.label_list says.
    label_list_ = *ssl_all ? std::vector<std::string>{"0", "90", "180", "270"} : std::vector<std::string>{"0", "180"};
    info_.push_back("Train.dataset.transforms SSLRotateResize: the classes are the turns of each image (" +
                    std::to_string(label_list_.size()) + ": " + arch_yaml::join(label_list_) +
                    " degrees clockwise); Global.label_list is not used");
  }
  const YAML::Node arch = config.root()["Architecture"];
  arch_text_ = YAML::Dump(arch);
  if (is_onnx_architecture(arch)) {
    load_onnx(arch);
  } else {
    const ClsArchSpec spec = cls_arch_from_yaml(arch);
    if (spec.class_dim != static_cast<int>(label_list_.size()))
      throw UsageError("Architecture.Head.class_dim is " + std::to_string(spec.class_dim) + " but Global.label_list has " +
                       std::to_string(label_list_.size()) + " labels; make them agree (PP-OCR: class_dim 2, ['0', '180'])");
    native_ = ClsModel(spec);
  }
  to_device(device);
}

void ClsTask::load_onnx(const YAML::Node& arch) {
  OnnxTaskModel m = load_onnx_task_model(arch, "a classifier (final Softmax)");
  onnx_ = m.graph;
  onnx_logits_ = m.logits;
  // The label list must fit the model's classes; probed at PaddleOCR's
  // classifier input (3 x 48 x 192).
  int64_t classes = -1;
  {
    torch::NoGradGuard no_grad;
    onnx_->eval();
    try {
      const torch::Tensor out = onnx_->forward(torch::zeros({1, 3, 48, 192}), onnx_logits_);
      classes = out.dim() == 2 ? out.size(1) : -1;
    } catch (const std::exception& e) {
      onnx_->train();
      throw UsageError("Architecture.onnx_model: '" + m.spec.onnx_model + "' does not run on a 3 x 48 x 192 image: " +
                       e.what());
    }
    onnx_->train();
  }
  if (classes < 0)
    throw UsageError("Architecture.onnx_model: '" + m.spec.onnx_model +
                     "' does not give N x classes scores, so it is not a direction classifier");
  if (classes != static_cast<int64_t>(label_list_.size()))
    throw UsageError("Global.label_list has " + std::to_string(label_list_.size()) + " labels but '" +
                     m.spec.onnx_model + "' outputs " + std::to_string(classes) +
                     " classes; list the model's labels in its class order (PP-OCR: ['0', '180'])");
  info_.push_back(m.log_line);
}

torch::nn::Module& ClsTask::model() {
  if (native_) return *native_;
  return *onnx_;
}

std::string ClsTask::own_weights() const {
  if (onnx_) return onnx_->path();
  throw UsageError(kNativeExportNeedsWeights);
}

void ClsTask::to_device(torch::Device device) {
  device_ = device;
  model().to(device);
}

std::optional<bool> ssl_rotate_select_all(const Config& config) {
  // Step by step: yaml-cpp throws on indexing a key that is not there (and
  // reset(), not =, moves the handle: = would overwrite the config's node).
  YAML::Node n = config.root();
  for (const char* key : {"Train", "dataset", "transforms"}) {
    if (!n.IsMap() || !n[key]) return std::nullopt;
    n.reset(n[key]);
  }
  const YAML::Node transforms = n;
  if (!transforms.IsSequence()) return std::nullopt;
  for (const auto& t : transforms)
    if (t.IsMap() && t["SSLRotateResize"]) {
      const YAML::Node p = t["SSLRotateResize"];
      return !(p.IsMap() && p["select_all"] && !p["select_all"].IsNull() && !p["select_all"].as<bool>(true));
    }
  return std::nullopt;
}

ClsTask::Flat ClsTask::flat(const Batch& batch) const {
  Flat f{batch.at("image"), batch.at("label"), 1};
  if (f.images.dim() == 5) {  // SSLRotateResize: B x turns x C x H x W, PaddleOCR's SSLRotateCollate
    f.turns = f.images.size(1);
    f.images = f.images.flatten(0, 1);
    f.labels = f.labels.flatten(0, 1);
  }
  return f;
}

torch::Tensor ClsTask::logits(const torch::Tensor& images) {
  if (native_) return native_->forward(images.to(device_));
  return onnx_->forward(images.to(device_), onnx_logits_);
}

std::unique_ptr<BatchLoader> ClsTask::make_loader(const std::string& name, bool training, int rank, int world_size) {
  ClsDataSpec setup = cls_data_from_yaml(config_.root()[name], name, label_list_, seed_, training);
  return std::make_unique<BatchLoader>(
      setup.dataset, setup.loader, seed_,
      task_sampler(training, setup.loader.shuffle, seed_, rank, world_size, setup.loader.batch_size));
}

StepLoss ClsTask::train_step(const Batch& batch) {
  const Flat f = flat(batch);
  StepLoss s;
  s.output = logits(f.images);
  s.loss = torch::nn::functional::cross_entropy(s.output, f.labels.to(device_));
  return s;
}

MetricSums ClsTask::train_metrics(const Batch& batch, const StepLoss& step) {
  const torch::Tensor hit = step.output.detach().argmax(1).cpu().eq(flat(batch).labels);
  return {{"acc"}, {hit.sum().item<double>()}, static_cast<double>(hit.numel())};
}

void ClsTask::report_samples(const Batch& batch, const torch::Tensor& predicted, const torch::Tensor& prob,
                             const torch::Tensor& hit) const {
  const Flat f = flat(batch);
  const torch::Tensor label = f.labels.to(torch::kCPU, torch::kLong);
  for (int64_t k = 0; k < label.numel(); ++k) {
    const auto i = static_cast<size_t>(k / f.turns);  // each image's turns are consecutive
    const auto name = [&](int64_t c) {
      return c >= 0 && static_cast<size_t>(c) < label_list_.size() ? label_list_[static_cast<size_t>(c)]
                                                                     : std::to_string(c);
    };
    sample_sink_({batch.paths[i], name(label[k].item<int64_t>()), name(predicted[k].item<int64_t>()),
                  prob[k].item<float>(), hit[k].item<bool>()});
  }
}

EvalMetrics ClsTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  model().eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  long correct = 0, total = 0;
  loader.start_epoch(0);
  const size_t batches = loader.batches_per_epoch();
  size_t done = 0;
  Batch batch;
  while (loader.next(&batch)) {
    const torch::Tensor probs = torch::softmax(logits(flat(batch).images).detach().to(torch::kCPU, torch::kFloat), 1);
    const auto [best_prob, best] = probs.max(1);
    const torch::Tensor hit = best.eq(flat(batch).labels);
    correct += hit.sum().item<int64_t>();
    total += hit.numel();
    if (sample_sink_) report_samples(batch, best, best_prob, hit);
    if (progress) progress(++done, batches);
  }
  model().train();
  EvalMetrics r;
  r.values = {{"acc", total ? static_cast<double>(correct) / static_cast<double>(total) : 0.0}};
  r.samples = total;
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

void ClsTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  const InferenceFolder f = native_ ? write_inference_folder(out_dir, cls_model_to_onnx(*native_), config, nullptr)
                                    : write_inference_folder(out_dir, *onnx_, config, nullptr);
  report.onnx_path = f.onnx_path;
  report.yml_path = f.yml_path;
  report.parameters = static_cast<long>(model().parameters().size());
}

Task::InferenceForward ClsTask::inference_forward(const Config&, const std::string&, const std::string&) {
  InferenceForward f;
  f.input_shape = {-1, 3, -1, -1};
  f.output_shape = {-1, static_cast<int64_t>(label_list_.size())};
  if (native_)
    f.forward = [m = native_](const torch::Tensor& x) mutable { return m->predict(x); };
  else
    f.forward = [m = onnx_](const torch::Tensor& x) mutable { return m->forward(x); };
  return f;
}

bool cls_task_takes(const TaskKey& k) {
  return k.model_type == ModelType::Cls && (k.algorithm == "ONNX" || k.algorithm == "CLS") && !k.distillation;
}

std::unique_ptr<Task> make_cls_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<ClsTask>(config, options, device);
}

}  // namespace ocrforge
