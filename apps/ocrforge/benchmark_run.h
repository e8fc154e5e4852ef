// --benchmark=True support shared by `ocr` and `infer`: warm-up handling and
// one report per model.
#pragma once
#include <string>

#include "ocrforge/infer/benchmark_report.h"
#include "ocrforge/infer/network.h"

namespace ocrforge {

inline void print_benchmark(const std::string& name, const Network& model, const StageStats& stats,
                            const RuntimeParams& rt, int batch_size, const std::string& input_shape,
                            double total_s, double rss_mb) {
  BenchmarkReport r;
  r.model_name = name;
  r.model_path = model.path();
  r.runtime = rt;
  r.runtime.precision = model.precision();  // what this model ran: cls stays fp32 under --precision int8
  r.int8_plan = model.int8_plan();
  r.batch_size = batch_size;
  r.input_shape = input_shape;
  r.data_num = stats.images;
  r.stats = stats;
  r.total_s = total_s;
  r.cpu_rss_mb = rss_mb;
  // stderr: stdout carries only results (text lines, "Predicts of ..."), so
  // `ocrforge ocr ... > out.txt` stays clean with --benchmark.
  std::fputs(format_benchmark_report(r).c_str(), stderr);
}

}  // namespace ocrforge
