// The Global section of a training config as a typed struct: converted once,
// so the loop never looks up string keys.
#pragma once
#include <cstdint>
#include <string>

namespace ocrforge {

class Config;

struct TrainerSpec {
  int epoch_num = 1;
  int log_smooth_window = 20;
  int print_batch_step = 10;
  std::string save_model_dir = "./output/rec";
  int save_epoch_step = 1;
  long eval_start = 0, eval_interval = 2000;  // Global.eval_batch_step [start, interval]
  bool cal_metric_during_train = true;
  // Global.calc_epoch_interval (PaddleOCR's tools/program.py): with
  // cal_metric_during_train, the training metric is computed in the epochs
  // (1-based) divisible by it only; in the others the log keeps showing the
  // last computed values, as PaddleOCR's smoothed training stats do.
  int calc_epoch_interval = 1;
  std::string pretrained_model, checkpoints;
  std::string character_dict_path;
  int max_text_length = 25;
  bool use_space_char = true;
  uint64_t seed = 1024;
  bool use_gpu = false;
  bool use_amp = false;
  int num_threads = 0;          // 0 = one per core
  bool deterministic = false;   // deterministic algorithms (for exact resume checks)
  double grad_clip = 0;         // ours: global norm clip shortcut (Optimizer.clip_norm_global also works)
  std::string main_indicator;  // Metric.main_indicator; empty: the task's (rec acc, det hmean)
  bool ignore_space = true;     // Metric.ignore_space
  // Global.metrics_port: rank 0 serves Prometheus metrics of the run at
  // http://metrics_host:port/metrics (loop/train_monitor.h); -1 = off, 0 = a free port.
  int metrics_port = -1;
  std::string metrics_host = "127.0.0.1";
  // Global.save_pdparams: each checkpoint also as <name>.pdparams, which
  // PaddleOCR loads (docs/pdparams.md#in-training).
  bool save_pdparams = false;
};

TrainerSpec trainer_spec_from_config(const Config& config);

}  // namespace ocrforge
