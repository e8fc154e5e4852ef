// The --benchmark=True report, one per model, in the layout of PaddleOCR's
// auto_log (Env / framework / Conf / Model / Data / Perf info), so scripts
// that parse PaddleOCR's benchmark logs read ours.
#pragma once
#include <string>

#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"

namespace ocrforge {

struct BenchmarkReport {
  std::string model_name;   // "det", "cls", "rec"
  std::string model_path;
  RuntimeParams runtime;
  std::string int8_plan;    // OrtModel::int8_plan(): the CPU kind and int8 weight scheme; "" for fp32 runs
  int batch_size = 1;
  std::string input_shape = "dynamic";
  long data_num = 0;        // images (det) or crops (cls/rec) measured
  StageStats stats;         // after warm-up
  double total_s = 0;       // wall time of the measured run, all models
  double cpu_rss_mb = 0;
};

// The report as lines prefixed with "[INFO] ", averages in ms per image
// (det) or per batch (cls/rec), as PaddleOCR reports them.
std::string format_benchmark_report(const BenchmarkReport& r);

}  // namespace ocrforge
