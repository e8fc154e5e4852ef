// What `ocrforge tipc` runs for a TIPC config and mode: the commands
// PaddleOCR's test_tipc/test_train_inference_python.sh would compose
// (training per device spec / autocast / trainer, evaluation, export of the
// `latest` checkpoint, the inference loops with their skip rules), with
// PaddleOCR's tools translated to ocrforge commands:
//   tools/train.py                  -> ocrforge train
//   -m paddle.distributed.launch    -> ocrforge launch ... train
//   tools/eval.py                   -> ocrforge eval
//   tools/export_model.py           -> ocrforge export
//   tools/infer/predict_det|rec|cls.py -> ocrforge infer det|rec|cls
//   tools/infer/predict_system.py   -> ocrforge ocr
// Output folders and log names are PaddleOCR's, under
// test_tipc/output/<model_name>/<mode>/.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/tipc/tipc_benchmark.h"
#include "ocrforge/tipc/tipc_config.h"

namespace ocrforge {

struct TipcStage {
  std::string kind;               // "train" | "eval" | "export" | "infer"
  std::vector<std::string> argv;  // ocrforge's arguments (after the binary); empty when skipped
  std::string log_path;           // where the command's output goes
  std::string skip_reason;        // non-empty: not run, and why (never reported as success)
  std::vector<std::string> not_applied;  // switches that do not apply here (e.g. --enable_mkldnn=True)
  TipcBenchmarkRun benchmark;     // benchmark_train: the run whose JSON line this training gives
  std::string command() const;    // argv joined by spaces, for the status log
};

struct TipcPlanParams {
  std::string mode;              // lite_train_lite_infer | lite_train_whole_infer | whole_infer | whole_train_whole_infer | benchmark_train
  std::string node_ip;           // --node_ip, passed to `launch` on several machines
  bool is_trainer0 = true;       // false on the other nodes: export / infer are skipped
  std::string output_root = "./test_tipc/output";  // as PaddleOCR's LOG_PATH
  // benchmark_train: PaddleOCR's PARAMS ("dynamic_bs8_fp32_DP_N1C2": one run,
  // epoch scaled by nodes x cards), or "" for every batch size x fp item of
  // train_benchmark_params on N1C4 (GPU configs) / N1C1 (CPU configs).
  std::string benchmark_params;
  std::string benchmark_root = ".";  // ${BENCHMARK_LOG_DIR:-$(pwd)}: train_log/ and index/ go there
  std::string repo_name = "ocrforge";  // PaddleOCR: the current folder's name, first part of the log names
};

struct TipcPlan {
  std::string model_name, mode;
  std::string log_dir;  // <output_root>/<model_name>/<mode>
  std::vector<TipcStage> stages;
};

// UsageError unless `mode` is one of PaddleOCR's five TIPC modes
// (lite_train_lite_infer, lite_train_whole_infer, whole_infer,
// whole_train_whole_infer, benchmark_train).
void require_tipc_mode(const std::string& mode);

// UsageError for an unknown mode; Error naming the file and key for a config
// that lacks what the mode needs.
TipcPlan plan_tipc(const TipcConfig& config, const TipcPlanParams& options);

// One PaddleOCR tool invocation ("tools/train.py -c x.yml -o A=1") with the
// extra arguments appended, as ocrforge arguments; UsageError naming the
// tool when it has no ocrforge counterpart.
std::vector<std::string> tipc_translate(const std::string& paddle_command, const std::vector<std::string>& extra);

}  // namespace ocrforge
