#include "ocrforge/train/loop/rec_trainer.h"
#include "ocrforge/train/loop/rec_trainer_state.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/data/rec_data_config.h"
#include "ocrforge/train/data/rec_loader.h"
#include "ocrforge/train/dist/dist_env.h"
#include "ocrforge/train/dist/distributed_sampler.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/smoothed_value.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/loop/train_log.h"
#include "ocrforge/train/loop/training_curve.h"
#include "ocrforge/train/models/ctc_loss.h"
#include "ocrforge/train/models/rec_model.h"
#include "ocrforge/train/optim/optimizer_factory.h"
#include "ocrforge/vision/rec_metric.h"

namespace fs = std::filesystem;

namespace ocrforge {


// The train loader of a multi-process run reads its rank's shard
// (distributed_sampler.h: equal steps on every rank); a single process, and
// evaluation (rank 0 only), read everything.
static std::unique_ptr<RecDataLoader> make_rec_loader(const YAML::Node& section, const std::string& name,
                                                      const Charset& charset, int max_text_length, bool training,
                                                      uint64_t seed, int rank, int world_size) {
  if (!section || !section.IsMap()) throw UsageError("config section '" + name + "' is missing");
  RecDataSetup setup = rec_data_from_yaml(section, name, charset, max_text_length, seed, training);
  if (!training) setup.loader.drop_last = false;  // evaluate every sample
  std::shared_ptr<Sampler> sampler;                // null: the loader's shuffle / sequential sampler
  if (world_size > 1)
    sampler = make_distributed_sampler(setup.loader.shuffle, seed, rank, world_size, setup.loader.batch_size);
  return std::make_unique<RecDataLoader>(setup.dataset, setup.loader, seed, sampler);
}

static Charset load_dict(const TrainerOptions& o) {
  return Charset::load(o.character_dict_path, o.use_space_char);
}

RecTrainer::RecTrainer(Config config, TrainerMode mode, std::unique_ptr<Communicator> comm)
    : config_(std::move(config)), comm_(std::move(comm)), s_(std::make_unique<State>()) {
  config_.validate();
  opt_ = trainer_options_from_config(config_);
  const YAML::Node root = config_.root();
  const std::string model_type = config_.get<std::string>("Architecture.model_type", "rec");
  if (model_type != "rec")
    throw UsageError("Architecture.model_type: '" + model_type + "' training is not supported yet (supported: rec)");
  if (opt_.use_gpu) {
    if (!torch::cuda::is_available())
      throw Error("Global.use_gpu=True but this libtorch build has no usable CUDA device; set Global.use_gpu=False");
    s_->device = torch::Device(
        torch::kCUDA, static_cast<c10::DeviceIndex>(cuda_device_index(static_cast<int>(torch::cuda::device_count()))));
  }
  if (opt_.use_amp && !opt_.use_gpu)
    throw UsageError("Global.use_amp=True needs CUDA (Global.use_gpu=True); mixed precision is not supported on CPU");
  if (opt_.use_amp) throw UsageError("Global.use_amp=True is not supported yet");
  at::set_num_threads(opt_.num_threads);
  if (opt_.deterministic) at::globalContext().setDeterministicAlgorithms(true, false);
  torch::manual_seed(opt_.seed);

  s_->charset = load_dict(opt_);
  s_->arch = rec_arch_from_yaml(root["Architecture"], s_->charset.num_classes());
  s_->arch_text = YAML::Dump(root["Architecture"]);
  // use_guide detaches the backbone from the CTC branch: PaddleOCR trains the
  // backbone through the SAR/NRTR branch of MultiHead, which we do not train
  // yet, so the backbone would silently never learn.
  if (s_->arch.neck.use_guide && mode == TrainerMode::Train)
    throw UsageError("Architecture Neck use_guide=True: with a CTC-only head the backbone would get no gradient "
                     "(PaddleOCR trains it through the SAR branch of MultiHead, not supported yet); set use_guide: False");
  for (const auto& h : s_->arch.dropped_heads)
    s_->dropped_heads_warning += (s_->dropped_heads_warning.empty() ? "" : ", ") + h;
  s_->model = RecModel(s_->arch);
  s_->model->to(s_->device);
  // NHWC on CPU (+28% training throughput measured in Python on the same
  // libtorch, docs/benchmarks.md). CUDA keeps NCHW: cuDNN's fp32 depthwise
  // kernels are not faster in NHWC and it is untested there.
  if (!s_->device.is_cuda()) s_->model->set_channels_last(true);
  s_->use_focal_loss = config_.get<bool>("Loss.use_focal_loss", false);

  if (mode == TrainerMode::Train)
    s_->train_loader = make_rec_loader(root["Train"], "Train", s_->charset, opt_.max_text_length, true, opt_.seed,
                                       comm_->rank(), comm_->world_size());
  if (root["Eval"] && comm_->is_main())
    s_->eval_loader = make_rec_loader(root["Eval"], "Eval", s_->charset, opt_.max_text_length, false, opt_.seed, 0, 1);

  s_->opt_spec = optimizer_spec_from_yaml(root["Optimizer"], opt_.epoch_num);
  if (opt_.grad_clip > 0 && s_->opt_spec.clip_norm_global <= 0) s_->opt_spec.clip_norm_global = opt_.grad_clip;
  // PaddleOCR's layers pin their own L2 on some parameters (CTC head fc_decay,
  // no decay on MobileNetV1Enhance's BatchNorm): those override the config's factor.
  RecModel model = s_->model;
  s_->optimizer = make_optimizer(s_->opt_spec, *s_->model,
                                 [model](const std::string& name) { return model->pinned_l2_decay(name); });
  const long steps_per_epoch = s_->train_loader ? static_cast<long>(s_->train_loader->batches_per_epoch()) : 1;
  s_->schedule = std::make_unique<LrSchedule>(s_->opt_spec.lr, steps_per_epoch);

  // Evaluation writes nothing into save_model_dir; training logs and saves
  // the resolved config there (rank 0 only).
  const bool writes = mode == TrainerMode::Train && comm_->is_main();
  if (writes) fs::create_directories(opt_.save_model_dir);
  s_->log = std::make_unique<TrainLog>(writes ? opt_.save_model_dir + "/train.log" : "", comm_->is_main());
  if (writes) config_.save(opt_.save_model_dir + "/config.yml");
  s_->progress.main_indicator = opt_.main_indicator;

  if (!opt_.checkpoints.empty()) {
    CheckpointData d = load_checkpoint(opt_.checkpoints, *s_->model, s_->optimizer.get());
    s_->progress = d.progress;
    // A mid-epoch save records steps beyond the last finished epoch.
    s_->resume_batch = s_->progress.global_step - static_cast<long>(s_->progress.epoch) * steps_per_epoch;
    if (s_->resume_batch < 0) s_->resume_batch = 0;
    s_->log->info("resume from " + checkpoint_path(opt_.checkpoints) + ": epoch " + std::to_string(d.progress.epoch) +
                  ", global_step " + std::to_string(d.progress.global_step));
  } else if (!opt_.pretrained_model.empty()) {
    PretrainedReport r = load_pretrained(opt_.pretrained_model, *s_->model);
    s_->log->info("load pretrained model from " + checkpoint_path(opt_.pretrained_model) + ": " +
                  std::to_string(r.loaded.size()) + " tensors loaded");
    for (const auto& k : r.missing) s_->log->warning("pretrained: no weight for " + k + " (kept its initial value)");
    for (const auto& k : r.unexpected) s_->log->warning("pretrained: skipped " + k + " (not in this model)");
    for (const auto& k : r.shape_mismatch) s_->log->warning("pretrained: skipped " + k + " (shape mismatch)");
  }
  comm_->broadcast_parameters(*s_->model);
  if (mode == TrainerMode::Train) s_->log->info("config:\n" + config_.to_yaml());
  if (!s_->dropped_heads_warning.empty())
    s_->log->warning("MultiHead: only the CTC branch is trained; not built: " + s_->dropped_heads_warning);
}

RecTrainer::~RecTrainer() = default;

void RecTrainer::save(const std::string& name) {
  if (!comm_->is_main()) return;
  CheckpointData d;
  d.progress = s_->progress;
  d.config_yaml = config_.to_yaml();
  d.architecture = s_->arch_text;
  save_checkpoint(opt_.save_model_dir + "/" + name, *s_->model, s_->optimizer.get(), d);
  s_->log->info("save model in " + checkpoint_path(opt_.save_model_dir + "/" + name));
}

RecEvalResult RecTrainer::evaluate() {
  if (!s_->eval_loader) throw UsageError("the config has no Eval section to evaluate on");
  s_->model->eval();
  auto forward = [&](const torch::Tensor& x) { return s_->model->forward(x.to(s_->device)); };
  RecEvalResult r = evaluate_rec(forward, *s_->eval_loader, s_->charset, opt_.ignore_space);
  s_->model->train();
  return r;
}

// PaddleOCR: evaluate when global_step > start and (global_step - start) % interval == 0.
bool RecTrainer::maybe_evaluate() {
  const long g = s_->progress.global_step;
  if (!s_->eval_loader || g <= opt_.eval_start || (g - opt_.eval_start) % opt_.eval_interval != 0) return false;
  RecEvalResult r = evaluate();
  const double metric = opt_.main_indicator == "norm_edit_dis" ? r.norm_edit_dis : r.acc;
  char buf[256];
  std::snprintf(buf, sizeof(buf), "cur metric, acc: %.6f, norm_edit_dis: %.6f, fps: %.2f", r.acc, r.norm_edit_dis,
                r.seconds > 0 ? r.samples / r.seconds : 0.0);
  s_->log->info(buf);
  if (metric > s_->progress.best_metric) {
    s_->progress.best_metric = metric;
    s_->progress.best_epoch = s_->progress.epoch + 1;
    save("best_accuracy");
  }
  std::snprintf(buf, sizeof(buf), "best metric, %s: %.6f, best_epoch: %d", opt_.main_indicator.c_str(),
                s_->progress.best_metric, s_->progress.best_epoch);
  s_->log->info(buf);
  if (comm_->is_main()) {
    nlohmann::json j = {{"global_step", g}, {"epoch", s_->progress.epoch + 1}, {"acc", r.acc},
                        {"norm_edit_dis", r.norm_edit_dis}, {"best_metric", s_->progress.best_metric},
                        {"lr", s_->schedule->at(g)}, {"eval_samples", r.samples}};
    std::ofstream(opt_.save_model_dir + "/metrics.jsonl", std::ios::app) << j.dump() << "\n";
    s_->curve.add_eval_point(g, metric);
    s_->curve.save_png(opt_.save_model_dir + "/training_curve.png", opt_.main_indicator);
  }
  return true;
}

}  // namespace ocrforge
