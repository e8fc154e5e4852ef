#include "ocrforge/infer/benchmark_report.h"

#include <gtest/gtest.h>

using namespace ocrforge;

TEST(BenchmarkReport, HasPaddleSectionsAndAverages) {
  BenchmarkReport r;
  r.model_name = "det";
  r.data_num = 4;
  r.stats.calls = 4;
  r.stats.images = 4;
  r.stats.preprocess_ms = 8;
  r.stats.inference_ms = 400;
  r.stats.postprocess_ms = 4;
  r.total_s = 0.5;
  r.cpu_rss_mb = 123.5;
  const std::string s = format_benchmark_report(r);
  for (const char* key : {"Env info", "Conf info", "Model info", "Data info", "Perf info", "model_name: det",
                          "data_num: 4", "cpu_rss(MB): 123.5000", "total time spent(s): 0.5000",
                          "preprocess_time(ms): 2.0000, inference_time(ms): 100.0000, postprocess_time(ms): 1.0000"})
    EXPECT_NE(s.find(key), std::string::npos) << key << "\n" << s;
}
