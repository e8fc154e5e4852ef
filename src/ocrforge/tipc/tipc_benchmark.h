// PaddleOCR's training benchmark (test_tipc/benchmark_train.sh + the
// benchmark repository's analysis script): each (batch size, precision,
// device count) runs training only, then its log is read for the `ips:`
// records (the first 2 skipped, as PaddleOCR's `--skip_steps 2`) and the
// last `loss:`, and one JSON line is written:
//
//   {"model_branch": null, "model_commit": null, "model_name": "PP-OCRv3_mobile_rec_bs8_fp32_DP",
//    "batch_size": 8, "fp_item": "fp32", "run_mode": "DP", "convergence_value": 41.2,
//    "convergence_key": "loss:", "ips": 23.4, "speed_unit": "samples/s", "device_num": "N1C2",
//    "model_run_time": 31, "frame_commit": "", "frame_version": "ocrforge 0.x"}
//
// `ips` is the mean per-process ips times the card count (PaddleOCR logs
// per-card ips; its analysis multiplies by the number of cards).
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// One benchmark run: what the JSON line says about it and where it goes.
struct TipcBenchmarkRun {
  std::string model_name;  // "<model>_bs<bs>_<fp>_<run_mode>", PaddleOCR's _model_name
  int batch_size = 0;
  std::string fp_item;      // fp32 | fp16
  std::string run_mode;     // DP
  std::string device_num;   // N1C1, N1C2, ...
  std::string speed_file;   // <BENCHMARK_LOG_DIR>/index/<repo>_<model>_bs.._<device>_speed
  bool active() const { return batch_size > 0; }
};

// "N1C4" -> nodes 1, cards 4; UsageError for anything else.
struct DeviceNum {
  int nodes = 1, cards = 1;
};
DeviceNum parse_device_num(const std::string& text);

struct TrainLogSpeed {
  std::vector<double> ips;     // every `ips:` value, in order
  std::vector<double> losses;  // every `loss:` value, in order
};
TrainLogSpeed read_train_log_speed(const std::string& log_text);

// The JSON line for a finished run. Error naming the log when it holds no
// more `ips:` records than the skipped ones (too few steps were logged:
// raise epoch or lower Global.print_batch_step).
std::string benchmark_json(const TipcBenchmarkRun& run, const TrainLogSpeed& speed, const std::string& log_path,
                           double run_seconds, const std::string& frame_version, int skip_steps = 2);

}  // namespace ocrforge
