#include "ocrforge/train/loop/trainer_spec.h"

#include <yaml-cpp/yaml.h>

#include <thread>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"

namespace ocrforge {

TrainerSpec trainer_spec_from_config(const Config& c) {
  TrainerSpec o;
  o.use_gpu = c.get<bool>("Global.use_gpu", o.use_gpu);
  if (c.get<bool>("Global.use_xpu", false))
    throw UsageError("Global.use_xpu=True: ocrforge trains on CPU or CUDA (Global.use_gpu); set Global.use_xpu=False");
  o.epoch_num = c.get<int>("Global.epoch_num", o.epoch_num);
  o.log_smooth_window = c.get<int>("Global.log_smooth_window", o.log_smooth_window);
  o.print_batch_step = c.get<int>("Global.print_batch_step", o.print_batch_step);
  require_at_least(o.print_batch_step, 1, "Global.print_batch_step");
  o.save_model_dir = c.get<std::string>("Global.save_model_dir", o.save_model_dir);
  o.save_epoch_step = c.get<int>("Global.save_epoch_step", o.save_epoch_step);
  require_at_least(o.save_epoch_step, 1, "Global.save_epoch_step");
  // [start, interval] or just the interval (PaddleOCR accepts both).
  const std::vector<long long> eval = c.get<std::vector<long long>>("Global.eval_batch_step", {});
  if (eval.size() == 2) {
    o.eval_start = static_cast<long>(eval[0]);
    o.eval_interval = static_cast<long>(eval[1]);
  } else if (eval.size() == 1 && !c.get<YAML::Node>("Global.eval_batch_step", YAML::Node()).IsSequence()) {
    o.eval_interval = static_cast<long>(eval[0]);
  } else if (!eval.empty()) {
    throw UsageError("config key 'Global.eval_batch_step' must be an integer or a list of 2 integers, got a list of " +
                     std::to_string(eval.size()));
  }
  if (o.eval_interval < 1) throw UsageError("Global.eval_batch_step: the interval must be >= 1");
  o.cal_metric_during_train = c.get<bool>("Global.cal_metric_during_train", o.cal_metric_during_train);
  o.calc_epoch_interval = c.get<int>("Global.calc_epoch_interval", o.calc_epoch_interval);
  require_at_least(o.calc_epoch_interval, 1, "Global.calc_epoch_interval");
  o.pretrained_model = c.get<std::string>("Global.pretrained_model", "");
  o.checkpoints = c.get<std::string>("Global.checkpoints", "");
  o.character_dict_path = c.get<std::string>("Global.character_dict_path", "");
  o.max_text_length = c.get<int>("Global.max_text_length", o.max_text_length);
  o.use_space_char = c.get<bool>("Global.use_space_char", o.use_space_char);
  o.seed = static_cast<uint64_t>(c.get<long>("Global.seed", static_cast<long>(o.seed)));
  o.use_amp = c.get<bool>("Global.use_amp", o.use_amp);
  o.num_threads = c.get<int>("Global.num_threads", 0);
  require_at_least(o.num_threads, 0, "Global.num_threads");
  if (o.num_threads <= 0) o.num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.deterministic = c.get<bool>("Global.deterministic", o.deterministic);
  o.grad_clip = c.get<double>("Global.grad_clip", 0.0);
  o.main_indicator = c.get<std::string>("Metric.main_indicator", "");
  o.ignore_space = c.get<bool>("Metric.ignore_space", o.ignore_space);
  o.metrics_port = c.get<int>("Global.metrics_port", o.metrics_port);
  if (o.metrics_port < -1 || o.metrics_port > 65535)
    throw UsageError("Global.metrics_port: " + std::to_string(o.metrics_port) +
                     " is not a port (0-65535; 0 picks a free one, -1 or absent: no metrics)");
  o.metrics_host = c.get<std::string>("Global.metrics_host", o.metrics_host);
  o.save_pdparams = c.get<bool>("Global.save_pdparams", o.save_pdparams);
  // Ranges: nonsense (Global.epoch_num=-1) is a usage error, never a run
  // that silently trains nothing.
  require_at_least(o.epoch_num, 1, "Global.epoch_num");
  require_at_least(o.log_smooth_window, 1, "Global.log_smooth_window");
  require_at_least(o.max_text_length, 1, "Global.max_text_length");
  require_at_least(static_cast<double>(o.eval_start), 0, "Global.eval_batch_step");
  require_at_least(o.grad_clip, 0, "Global.grad_clip");
  return o;
}

}  // namespace ocrforge
