#include "ocrforge/train/tasks/det/det_task.h"
#include "ocrforge/train/tasks/det/det_model_onnx.h"
#include "ocrforge/train/export/inference_folder.h"

#include <yaml-cpp/yaml.h>

#include <opencv2/core.hpp>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/tasks/det/det_data_config.h"
#include "ocrforge/train/dist/distributed_sampler.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/vision/det_metric.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/tasks/inference_file_weights.h"
#include "ocrforge/train/tasks/det/det_paddle_onnx.h"

namespace ocrforge {

namespace {

// What DetMetric needs of one evaluation image (the batch's `extra`).
struct DetTruth {
  cv::Size src_size;
  std::vector<DetGtPolygon> polygons;
};

// DetDataset as the task-free Dataset: the four training maps or, in
// evaluation, the image alone plus the ground truth as `extra`.
class DetDatasetView : public Dataset {
 public:
  explicit DetDatasetView(std::shared_ptr<DetDataset> d) : d_(std::move(d)) {}
  size_t size() const override { return d_->size(); }
  Sample load_sample(size_t index, uint64_t rng_seed, DataStats* stats) const override {
    DetDataStats ds;
    DetSample s = d_->load(index, rng_seed, &ds);
    if (stats) add_stats(ds, stats);
    const int64_t h = s.height, w = s.width;
    auto plane = [&](std::vector<float>& v, std::initializer_list<int64_t> shape) {
      return torch::from_blob(v.data(), shape, torch::kFloat32).clone();
    };
    Sample out;
    out.tensors["image"] = plane(s.image, {3, h, w});
    if (d_->training()) {
      out.tensors["threshold_map"] = plane(s.threshold_map, {h, w});
      out.tensors["threshold_mask"] = plane(s.threshold_mask, {h, w});
      out.tensors["shrink_map"] = plane(s.shrink_map, {h, w});
      out.tensors["shrink_mask"] = plane(s.shrink_mask, {h, w});
    } else {
      out.extra = DetTruth{cv::Size(s.src_w, s.src_h), std::move(s.polygons)};
    }
    out.path = std::move(s.path);
    return out;
  }

 private:
  // Replacements go to the named fields; the det-only reasons to `other`.
  static void add_stats(const DetDataStats& d, DataStats* s) {
    s->missing_images += d.missing_images;
    s->undecodable += d.undecodable;
    auto add = [&](const char* name, long v) {
      if (v) s->other[name] += v;
    };
    add("images without text", d.no_text);
    add("regions clipped to the image", d.clipped);
    add("zero-area regions ignored", d.zero_area);
    add("self-intersecting regions ignored", d.self_intersecting);
    add("regions too small to shrink ignored", d.too_small);
    add("regions whose shrink failed ignored", d.shrink_failed);
  }
  std::shared_ptr<DetDataset> d_;
};

cv::Mat prob_map(const torch::Tensor& maps, int64_t i) {
  torch::Tensor p = maps[i][0].to(torch::kCPU, torch::kFloat32).contiguous();
  return cv::Mat(static_cast<int>(p.size(0)), static_cast<int>(p.size(1)), CV_32F, p.data_ptr<float>()).clone();
}

}  // namespace

DbPostParams db_post_params_from_yaml(const YAML::Node& n) {
  DbPostParams p;
  if (!n || n.IsNull()) return p;
  const std::string path = "PostProcess";
  std::string name = "DBPostProcess";
  read_key(n, path, "name", &name);
  if (name != "DBPostProcess")
    throw UsageError("PostProcess.name: '" + name + "' does not fit a DB detector (use DBPostProcess)");
  if (read_key(n, path, "thresh", &p.thresh)) require_between(p.thresh, 0, 1, "PostProcess.thresh");
  if (read_key(n, path, "box_thresh", &p.box_thresh)) require_between(p.box_thresh, 0, 1, "PostProcess.box_thresh");
  if (read_key(n, path, "max_candidates", &p.max_candidates))
    require_at_least(p.max_candidates, 1, "PostProcess.max_candidates");
  if (read_key(n, path, "unclip_ratio", &p.unclip_ratio)) require_above(p.unclip_ratio, 0, "PostProcess.unclip_ratio");
  read_key(n, path, "use_dilation", &p.use_dilation);
  std::string mode = "fast";
  if (read_key(n, path, "score_mode", &mode)) {
    if (mode != "fast" && mode != "slow") throw UsageError("PostProcess.score_mode: '" + mode + "' (known: fast, slow)");
    p.score_mode = mode == "fast" ? DbScoreMode::Fast : DbScoreMode::Slow;
  }
  std::string box = "quad";
  if (read_key(n, path, "box_type", &box)) {
    if (box != "quad" && box != "poly") throw UsageError("PostProcess.box_type: '" + box + "' (known: quad, poly)");
    p.box_type = box == "quad" ? DetBoxType::Quad : DetBoxType::Poly;
  }
  return p;
}

DetTask::DetTask(const Config& config, const TrainerSpec& o, torch::Device device)
    : config_(config), device_(device) {
  seed_ = o.seed;
  const YAML::Node root = config.root();
  arch_text_ = YAML::Dump(root["Architecture"]);
  if (is_onnx_architecture(root["Architecture"])) {
    OnnxTaskModel m = load_onnx_task_model(root["Architecture"], "a DB detector (final Sigmoid)");
    onnx_ = m.graph;
    onnx_logits_ = m.logits;
    info_.push_back(m.log_line + "; the deployed graph has no threshold branch: loss = shrink + binary terms on its map");
  } else {
    arch_ = det_arch_from_yaml(root["Architecture"]);
    if (arch_.backbone.name == "PPLCNetV3" && weights_from_inference_file(o)) {
      arch_.backbone.rep_deploy = true;
      info_.push_back(inference_form_info("Architecture.Backbone PPLCNetV3", "a PaddleOCR inference.onnx") +
                      "; the file has no threshold branch: DBHead's thresh keeps its initialisation");
    }
    model_ = DetModel(arch_);
  }
  loss_ = DBLoss(db_loss_from_yaml(root["Loss"]));
  post_ = db_post_params_from_yaml(root["PostProcess"]);
  to_device(device);
}

PretrainedReport DetTask::load_pretrained_weights(const std::string& path) {
  if (!is_inference_onnx_file(path)) return Task::load_pretrained_weights(path);
  if (!model_)
    throw pretrained_with_onnx_architecture(path);
  return report_loaded(*model_, load_det_paddle_onnx(*model_, path));
}

torch::nn::Module& DetTask::model() {
  if (onnx_) return *onnx_;
  return *model_;
}

torch::Tensor DetTask::probability_maps(const torch::Tensor& images) {
  if (onnx_) return onnx_->forward(images.to(device_));  // the graph ends in the Sigmoid
  return model_->forward(images.to(device_));            // eval mode: the shrink map
}

void DetTask::to_device(torch::Device device) {
  device_ = device;
  if (onnx_) {  // op-by-op ATen: NCHW as the input comes
    onnx_->to(device);
    return;
  }
  model_->to(device);
  model_->set_channels_last(!device.is_cuda());  // as RecTask: NHWC is faster on CPU
}

std::unique_ptr<BatchLoader> make_det_loader(const Config& config, const std::string& name, bool training, int rank,
                                             int world_size, uint64_t seed) {
  const YAML::Node section = config.root()[name];
  if (!section || !section.IsMap()) throw UsageError("config section '" + name + "' is missing");
  DetDataSpec setup = det_data_from_yaml(section, name, seed, training);
  if (!training) setup.loader.drop_last = false;  // evaluate every image
  return std::make_unique<BatchLoader>(
      std::make_shared<DetDatasetView>(setup.dataset), setup.loader, seed,
      task_sampler(training, setup.loader.shuffle, seed, rank, world_size, setup.loader.batch_size));
}

long add_det_eval_batch(const Batch& batch, const torch::Tensor& maps, const DbPostParams& post, DetMetric& metric) {
  for (size_t i = 0; i < batch.size(); ++i) {
    const auto& truth = std::any_cast<const DetTruth&>(batch.extras[i]);
    std::vector<std::vector<cv::Point2f>> boxes;
    for (const TextBox& b : db_postprocess(prob_map(maps, static_cast<int64_t>(i)), truth.src_size, post))
      boxes.push_back(b.polygon);
    metric.add(truth.polygons, boxes);
  }
  return static_cast<long>(batch.size());
}

std::unique_ptr<BatchLoader> DetTask::make_loader(const std::string& name, bool training, int rank, int world_size) {
  return make_det_loader(config_, name, training, rank, world_size, seed_);
}

StepLoss DetTask::train_step(const Batch& batch) {
  StepLoss s;
  DBTargets t{batch.at("shrink_map").to(device_), batch.at("shrink_mask").to(device_),
              batch.at("threshold_map").to(device_), batch.at("threshold_mask").to(device_)};
  DBLossParts parts;
  if (onnx_) {
    s.output = onnx_->forward(batch.at("image").to(device_), onnx_logits_);
    parts = loss_.probability_map_only(s.output, t);
  } else {
    s.output = model_->forward(batch.at("image").to(device_));
    parts = loss_(s.output, t);
  }
  s.loss = parts.loss;
  for (const auto& [name, value] : parts.named())
    if (name != "loss") s.parts.emplace_back(name, value.item<double>());
  return s;
}

EvalMetrics DetTask::evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) {
  model().eval();
  torch::NoGradGuard no_grad;
  Stopwatch sw;
  DetMetric metric;
  loader.start_epoch(0);
  const size_t total = loader.batches_per_epoch();
  size_t done = 0;
  long images = 0;
  Batch batch;
  while (loader.next(&batch)) {
    images += add_det_eval_batch(batch, probability_maps(batch.at("image")), post_, metric);
    if (progress) progress(++done, total);
  }
  model().train();
  EvalMetrics r;
  r.values = {{"precision", metric.precision()}, {"recall", metric.recall()}, {"hmean", metric.hmean()}};
  r.samples = images;
  r.seconds = sw.elapsed_ms() / 1000.0;
  return r;
}

std::string DetTask::own_weights() const {
  if (onnx_) return onnx_->path();
  throw UsageError(kNativeExportNeedsWeights);
}

void DetTask::export_inference(const Config& config, const std::string& out_dir, ExportReport& report) {
  const InferenceFolder f = onnx_ ? write_inference_folder(out_dir, *onnx_, config, nullptr)
                                  : write_inference_folder(out_dir, det_model_to_onnx(*model_), config, nullptr);
  report.onnx_path = f.onnx_path;
  report.yml_path = f.yml_path;
  report.parameters = static_cast<long>(model().parameters().size());
}

Task::InferenceForward DetTask::inference_forward(const Config&, const std::string&, const std::string&) {
  InferenceForward f;
  f.input_shape = {-1, 3, -1, -1};
  f.output_shape = {-1, 1, -1, -1};
  if (onnx_)
    f.forward = [m = onnx_](const torch::Tensor& x) mutable { return m->forward(x); };
  else
    f.forward = [m = model_](const torch::Tensor& x) mutable { return m->forward(x); };  // eval: the shrink-map probabilities
  return f;
}

bool det_task_takes(const TaskKey& k) { return k.model_type == ModelType::Det && !k.distillation && (k.algorithm.empty() || k.algorithm == "DB" || k.algorithm == "ONNX"); }

std::unique_ptr<Task> make_det_task(const Config& config, const TrainerSpec& options, torch::Device device) {
  return std::make_unique<DetTask>(config, options, device);
}

}  // namespace ocrforge
