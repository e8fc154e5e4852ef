#include "ocrforge/infer/benchmark_report.h"

#include <cstdio>
#include <sstream>

#include "ocrforge/core/process_info.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/version.h"

namespace ocrforge {

static std::string fixed(double v, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string format_benchmark_report(const BenchmarkReport& r) {
  std::ostringstream os;
  auto line = [&](const std::string& s) { os << "[INFO] " << s << "\n"; };
  const bool gpu = r.runtime.use_gpu;
  line("---------------------- Env info ----------------------");
  line(" OS_version: " + os_version());
  line(" CPU: " + cpu_model());
  line(" CUDA_version: None");
  line(" CUDNN_version: None");
  line(" drivier_version: None");
  line("---------------------- ocrforge info ----------------------");
  line(" ocrforge_version: " + std::string(OCRFORGE_VERSION));
  line(" onnxruntime_version: " + onnxruntime_version());
  line(" log_api_version: 1.0");
  line("----------------------- Conf info -----------------------");
  line(" runtime_device: " + std::string(gpu ? "gpu" : "cpu"));
  line(std::string(" ir_optim: ") + (r.runtime.ir_optim ? "True" : "False"));
  line(" enable_memory_optim: True");
  line(" enable_tensorrt: False");
  line(" enable_mkldnn: False");
  line(" cpu_math_library_num_threads: " + std::to_string(effective_threads(r.runtime.cpu_threads)));
  line("----------------------- Model info ----------------------");
  line(" model_name: " + r.model_name);
  line(" model_path: " + r.model_path);
  line(" precision: " + r.runtime.precision);
  if (!r.int8_plan.empty()) line(" int8_plan: " + r.int8_plan);
  line("----------------------- Data info -----------------------");
  line(" batch_size: " + std::to_string(r.batch_size));
  line(" input_shape: " + r.input_shape);
  line(" data_num: " + std::to_string(r.data_num));
  line("----------------------- Perf info -----------------------");
  line(" cpu_rss(MB): " + fixed(r.cpu_rss_mb) + ", gpu_rss(MB): None, gpu_util: None%");
  line(" total time spent(s): " + fixed(r.total_s));
  const double calls = r.stats.calls > 0 ? static_cast<double>(r.stats.calls) : 1.0;
  line(" preprocess_time(ms): " + fixed(r.stats.preprocess_ms / calls) +
       ", inference_time(ms): " + fixed(r.stats.inference_ms / calls) +
       ", postprocess_time(ms): " + fixed(r.stats.postprocess_ms / calls));
  return os.str();
}

}  // namespace ocrforge
