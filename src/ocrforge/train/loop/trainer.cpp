#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/cpu_bf16.h"

#include "ocrforge/train/loop/config_keys.h"

#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/dist/dist_env.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/pdparams_weights.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/loop/train_log.h"
#include "ocrforge/train/loop/trainer_state.h"
#include "ocrforge/train/loop/training_curve.h"
#include "ocrforge/train/optim/optimizer_factory.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// Creates Global.save_model_dir and takes its lock (one training run per
// folder, as `ocr` locks its output folder): a run of another process into
// the same folder stops before writing anything, naming the holder. Trainers
// of one process share the lock (a resume test, a program training twice).
// Error naming the key when the folder cannot be created or written.
std::shared_ptr<FolderLock> claim_save_model_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw Error("Global.save_model_dir '" + dir + "': cannot create the folder (" +
                (ec ? ec.message() : std::string("a file of that name exists")) +
                "); choose a folder you can write: -o Global.save_model_dir=DIR");
  if (::access(dir.c_str(), W_OK) != 0)
    throw Error("Global.save_model_dir '" + dir + "' is not writable (" + std::strerror(errno) +
                "); choose a folder you can write: -o Global.save_model_dir=DIR");
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<FolderLock>> held;
  const std::string key = fs::weakly_canonical(dir, ec).string();
  std::lock_guard<std::mutex> guard(mutex);
  if (auto lock = held[key].lock()) return lock;
  auto lock = std::make_shared<FolderLock>(dir, "Global.save_model_dir");
  held[key] = lock;
  return lock;
}

}  // namespace


std::vector<std::string> check_config_keys(const Config& config) {
  TrainingConfigReads reads;
  const TrainerSpec spec = trainer_spec_from_config(config);
  std::unique_ptr<Task> task = make_task(config, spec, torch::kCPU);
  for (const std::string section : {"Train", "Eval"}) {
    if (!config.root()[section]) continue;
    try {
      task->make_loader(section, section == "Train", 0, 1);
    } catch (const UsageError&) {
      throw;
    } catch (const Error&) {
      // The data cannot be read here: the keys read before it was opened are
      // checked, as `ocrforge check` does (loop/config_check.h).
    }
  }
  if (config.root()["Optimizer"]) optimizer_spec_from_yaml(config.root()["Optimizer"], spec.epoch_num);
  return reads.finish(config);
}

Trainer::Trainer(Config config, TrainerMode mode, std::unique_ptr<Communicator> comm)
    : config_(std::move(config)), comm_(std::move(comm)), s_(std::make_unique<State>()) {
  // Every key this run reads is recorded from here to reads.finish(), which
  // reports the keys nothing read (a typo must not train silently).
  TrainingConfigReads reads;
  opt_ = trainer_spec_from_config(config_);
  const YAML::Node root = config_.root();
  if (opt_.use_gpu) {
    if (!torch::cuda::is_available())
      throw Error("Global.use_gpu=True but this libtorch build has no usable CUDA device; set Global.use_gpu=False");
    s_->device = torch::Device(
        torch::kCUDA, static_cast<c10::DeviceIndex>(cuda_device_index(static_cast<int>(torch::cuda::device_count()))));
  }
  std::string amp_info;
  if (opt_.use_amp && opt_.use_gpu)
    throw UsageError("Global.use_amp=True on CUDA (fp16 with loss scaling) is not supported yet; set "
                     "Global.use_amp=False");
  if (opt_.use_amp) {
    const std::string bf16 = cpu_bf16_instructions();
    if (bf16.empty())
      throw UsageError("Global.use_amp=True on a CPU runs bf16 autocast, which needs native bf16 instructions "
                       "(avx512_bf16 or amx_bf16); this CPU has neither (bf16 would be emulated, slower than fp32): "
                       "set Global.use_amp=False");
    s_->bf16_autocast = true;
    amp_info = "Global.use_amp: bf16 autocast on this CPU (" + bf16 +
               "); weights, gradients and optimizer stay fp32 (amp_level O1); Global.amp_level, amp_dtype, "
               "scale_loss and use_dynamic_loss_scaling have no effect (bf16 has fp32's exponent range: no loss "
               "scaling)";
  }
  at::set_num_threads(opt_.num_threads);
  if (opt_.deterministic) at::globalContext().setDeterministicAlgorithms(true, false);
  torch::manual_seed(opt_.seed);

  s_->task = make_task(config_, opt_, s_->device);
  if (opt_.main_indicator.empty()) opt_.main_indicator = s_->task->default_main_indicator();
  if (mode != TrainerMode::Eval) s_->task->check_trainable();

  if (mode == TrainerMode::Train) s_->train_loader = s_->task->make_loader("Train", true, comm_->rank(), comm_->world_size());
  if (root["Eval"] && comm_->is_main() && mode != TrainerMode::Check)
    s_->eval_loader = s_->task->make_loader("Eval", false, 0, 1);

  s_->opt_spec = optimizer_spec_from_yaml(root["Optimizer"], opt_.epoch_num);
  if (opt_.grad_clip > 0 && s_->opt_spec.clip_norm_global <= 0) s_->opt_spec.clip_norm_global = opt_.grad_clip;
  // Sections this run has no use for: evaluation does not read Train, a
  // worker other than rank 0 does not evaluate.
  if (!s_->train_loader) reads.excuse("Train");
  if (!s_->eval_loader) reads.excuse("Eval");
  const std::vector<std::string> ignored_keys = reads.finish(config_);
  // Some layers pin their own L2 on some parameters (PaddleOCR's CTC head
  // fc_decay, no decay on MobileNetV1Enhance's BatchNorm): those override the config's factor.
  Task* task = s_->task.get();
  s_->optimizer = make_optimizer(s_->opt_spec, task->model(),
                                 [task](const std::string& name) { return task->pinned_l2_decay(name); });
  const long steps_per_epoch = s_->train_loader ? static_cast<long>(s_->train_loader->batches_per_epoch()) : 1;
  s_->lr = std::make_unique<LrSchedule>(s_->opt_spec.lr, steps_per_epoch);
  s_->schedule = std::make_unique<Schedule>(opt_, steps_per_epoch);

  // Evaluation writes nothing into save_model_dir; training logs and saves
  // the resolved config there (rank 0 only).
  const bool writes = mode == TrainerMode::Train && comm_->is_main();
  if (writes) s_->save_dir_lock = claim_save_model_dir(opt_.save_model_dir);
  s_->log = std::make_unique<TrainLog>(writes ? opt_.save_model_dir + "/train.log" : "",
                                       comm_->is_main() && mode != TrainerMode::Check);
  if (writes) config_.save(opt_.save_model_dir + "/config.yml");
  s_->progress.main_indicator = opt_.main_indicator;
  if (mode != TrainerMode::Check) load_initial_weights();
  comm_->broadcast_parameters(task->model());
  if (mode == TrainerMode::Train) s_->log->info("config:\n" + config_.to_yaml());
  if (!ignored_keys.empty()) s_->log->info(ignored_keys_line(ignored_keys));
  for (const auto& w : task->startup_warnings()) s_->log->warning(w);
  for (const auto& i : task->startup_info()) s_->log->info(i);
  if (!amp_info.empty()) s_->log->info(amp_info);
  if (writes && opt_.metrics_port >= 0) {
    s_->monitor = make_train_monitor(opt_.metrics_host, opt_.metrics_port);
    s_->log->info("metrics: " + s_->monitor->address());
  }
}

void Trainer::load_initial_weights() {
  torch::nn::Module& model = s_->task->model();
  if (!opt_.checkpoints.empty()) {
    const std::string indicator = s_->progress.main_indicator;
    CheckpointData d = load_checkpoint(opt_.checkpoints, model, s_->optimizer.get());
    s_->progress = d.progress;
    if (s_->progress.main_indicator.empty()) s_->progress.main_indicator = indicator;  // a .pdparams: weights only
    // A mid-epoch save records steps beyond the last finished epoch.
    s_->resume_batch = s_->schedule->batches_done_in_next_epoch(s_->progress.global_step, s_->progress.epoch);
    s_->log->info("resume from " + weights_path(opt_.checkpoints) + ": epoch " + std::to_string(d.progress.epoch) +
                  ", global_step " + std::to_string(d.progress.global_step));
  } else if (!opt_.pretrained_model.empty()) {
    PretrainedReport r = s_->task->load_pretrained_weights(opt_.pretrained_model);
    s_->log->info("load pretrained model from " + weights_path(opt_.pretrained_model) + ": " +
                  std::to_string(r.loaded.size()) + " tensors loaded");
    for (const auto& line : missing_weight_lines(r.missing)) s_->log->warning(line);
    for (const auto& w : r.warnings) s_->log->warning(w);
    for (const auto& k : r.unexpected) s_->log->warning("pretrained: skipped " + k + " (not in this model)");
    for (const auto& k : r.shape_mismatch) s_->log->warning("pretrained: skipped " + k + " (shape mismatch)");
  }
}

Trainer::~Trainer() = default;

Task& Trainer::task() { return *s_->task; }

void Trainer::save(const std::string& name) {
  if (!comm_->is_main()) return;
  CheckpointData d;
  d.progress = s_->progress;
  d.config_yaml = config_.to_yaml();
  d.architecture = s_->task->architecture_text();
  save_checkpoint(opt_.save_model_dir + "/" + name, s_->task->model(), s_->optimizer.get(), d);
  s_->log->info("save model in " + checkpoint_path(opt_.save_model_dir + "/" + name));
  if (opt_.save_pdparams) {
    const std::string pdparams = opt_.save_model_dir + "/" + name + ".pdparams";
    save_pdparams(pdparams, s_->task->model());
    s_->log->info("save model in " + pdparams + " (PaddleOCR's weights layout)");
  }
}

EvalMetrics Trainer::evaluate() {
  if (!s_->eval_loader) throw UsageError("the config has no Eval section to evaluate on");
  return s_->task->evaluate(*s_->eval_loader);
}

// Evaluates when the schedule says so; logs PaddleOCR's "cur metric" and
// "best metric" lines, saves best_accuracy, appends metrics.jsonl and
// redraws the curve.
bool Trainer::maybe_evaluate() {
  const long g = s_->progress.global_step;
  if (!s_->eval_loader || !s_->schedule->evaluate_now(g)) return false;
  const EvalMetrics r = evaluate();
  const double metric = r.get(opt_.main_indicator);
  std::string line = "cur metric";
  char buf[96];
  for (const auto& [k, v] : r.values) {
    std::snprintf(buf, sizeof(buf), ", %s: %.6f", k.c_str(), v);
    line += buf;
  }
  std::snprintf(buf, sizeof(buf), ", fps: %.2f", r.seconds > 0 ? r.samples / r.seconds : 0.0);
  s_->log->info(line + buf);
  if (metric > s_->progress.best_metric) {
    s_->progress.best_metric = metric;
    s_->progress.best_epoch = s_->progress.epoch + 1;
    save("best_accuracy");
  }
  std::snprintf(buf, sizeof(buf), "best metric, %s: %.6f, best_epoch: %d", opt_.main_indicator.c_str(),
                s_->progress.best_metric, s_->progress.best_epoch);
  s_->log->info(buf);
  if (s_->monitor) s_->monitor->on_eval(r.values, opt_.main_indicator, s_->progress.best_metric);
  if (comm_->is_main()) {
    nlohmann::ordered_json j = {{"global_step", g}, {"epoch", s_->progress.epoch + 1}};
    for (const auto& [k, v] : r.values) j[k] = v;
    j["best_metric"] = s_->progress.best_metric;
    j["lr"] = s_->lr->at(g);
    j["eval_samples"] = r.samples;
    std::ofstream(opt_.save_model_dir + "/metrics.jsonl", std::ios::app) << j.dump() << "\n";
    s_->curve.add_eval_point(g, metric);
    s_->curve.save_png(opt_.save_model_dir + "/training_curve.png", opt_.main_indicator);
  }
  return true;
}

}  // namespace ocrforge
