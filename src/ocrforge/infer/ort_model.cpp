#include "ocrforge/infer/ort_model.h"

#include <onnxruntime_cxx_api.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/onnx/onnx_simplify.h"
#include "ocrforge/infer/cpu_topology.h"

namespace fs = std::filesystem;

namespace ocrforge {

// One process-wide environment: ORT wants exactly one.
static Ort::Env& ort_env() {
  static Ort::Env env(ORT_LOGGING_LEVEL_ERROR, "ocrforge");
  return env;
}

// The process-wide CPU arena of RuntimeParams::shared_arena, registered on
// the environment once, before the first session that asks for it, with
// ORT's default arena settings (blocks grow by powers of two): "same as
// requested" left more unusable gaps and peaked at 531 vs 392 MiB over 300
// mixed images (docs/benchmarks.md).
static void register_shared_cpu_arena() {
  static std::once_flag once;
  try {
    std::call_once(once, [] {
      OrtArenaCfg* cfg = nullptr;
      Ort::ThrowOnError(Ort::GetApi().CreateArenaCfgV2(nullptr, nullptr, 0, &cfg));
      std::unique_ptr<OrtArenaCfg, void (*)(OrtArenaCfg*)> owned(cfg, [](OrtArenaCfg* c) {
        Ort::GetApi().ReleaseArenaCfg(c);
      });
      const Ort::MemoryInfo cpu = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
      ort_env().CreateAndRegisterAllocator(cpu, cfg);
    });
  } catch (const Ort::Exception& e) {
    throw Error(std::string("cannot set up ONNX Runtime's shared CPU arena (") + e.what() +
                "); run with --shared_arena False (RuntimeParams::shared_arena = false)");
  }
}

std::string onnxruntime_version() { return Ort::GetVersionString(); }
std::vector<std::string> onnxruntime_providers() { return Ort::GetAvailableProviders(); }

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string resolve_model_file(const std::string& model, const std::string& flag) {
  std::error_code ec;
  if (model.empty())
    throw Error(flag + " is not set and " + no_default_models_message());
  if (!fs::exists(model, ec)) throw Error("model '" + model + "' does not exist: check " + flag);
  if (!fs::is_directory(model, ec)) return model;
  if (fs::exists(fs::path(model) / "inference.onnx", ec)) return (fs::path(model) / "inference.onnx").string();
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(model, ec))
    if (e.path().extension() == ".onnx") found.push_back(e.path().string());
  if (found.size() == 1) return found[0];
  if (found.empty())
    throw Error("model folder '" + model + "' holds no .onnx file (expected inference.onnx): check " + flag);
  throw Error("model folder '" + model + "' holds several .onnx files; name one file in " + flag);
}

int effective_threads(int requested) {
  // An explicit --cpu_threads is honoured up to the CPUs this process may
  // use; the default (the physical cores, RuntimeParams) is where
  // oversubscription is avoided.
  return std::clamp(requested, 1, logical_cpu_count());
}

static GraphOptimizationLevel graph_level(const std::string& name) {
  if (name == "disable") return GraphOptimizationLevel::ORT_DISABLE_ALL;
  if (name == "basic") return GraphOptimizationLevel::ORT_ENABLE_BASIC;
  if (name == "extended") return GraphOptimizationLevel::ORT_ENABLE_EXTENDED;
  if (name == "all") return GraphOptimizationLevel::ORT_ENABLE_ALL;
  throw UsageError("graph optimisation level '" + name + "' is unknown: use disable, basic, extended or all");
}

// Memory mapped outside the malloc heap (a file read-only, or anonymous),
// unmapped on destruction: the simplification's two model-sized buffers then
// never pass through glibc's heap (see simplify_onnx_bytes_into).
class MappedBytes {
 public:
  MappedBytes() = default;
  MappedBytes(const MappedBytes&) = delete;
  MappedBytes& operator=(const MappedBytes&) = delete;
  ~MappedBytes() {
    if (data_) munmap(data_, size_);
  }
  bool map_file(const std::string& file) {
    const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = p;
        size_ = static_cast<size_t>(st.st_size);
      }
    }
    close(fd);
    return data_ != nullptr;
  }
  void* allocate(size_t n) {
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    data_ = p;
    size_ = n;
    return p;
  }
  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// `file` in its simplified form (--ir_optim) into `out`; false when the file
// is better loaded as it is: nothing to simplify, or it does not parse (ORT
// then reports the problem with the file's own name).
static bool simplified_model(const std::string& file, MappedBytes* out) {
  MappedBytes in;
  if (!in.map_file(file)) return false;
  try {
    return simplify_onnx_bytes_into(in.data(), in.size(), file, [out](size_t n) { return out->allocate(n); }) > 0;
  } catch (const Error&) {
    return false;
  }
}

struct OrtModel::Impl {
  Ort::SessionOptions options;
  std::unique_ptr<Ort::Session> session;
  Ort::MemoryInfo memory = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
};

// One line per process: a pipeline makes several int8 models (det, one rec
// per worker), and the note is the same for each.
static void note_int8_slower_once(const std::string& why) {
  static std::once_flag once;
  std::call_once(once, [&] {
    std::fprintf(stderr,
                 "int8: note: %s; without VNNI, ONNX Runtime's int8 kernels run these models slower than fp32 "
                 "(docs/benchmarks.md \"INT8\"): --precision fp32 is faster on this CPU\n",
                 why.c_str());
  });
}

static void check_precision(const RuntimeParams& rt) {
  if (rt.precision == "fp32") return;
  if (rt.precision == "int8") {
    if (rt.use_gpu)
      throw UsageError("--precision int8 runs on the CPU provider only (its int8 kernels); use it with --use_gpu=False");
    return;
  }
  if (rt.precision == "fp16")
    throw UsageError("--precision fp16 is not supported: the CPU provider has no fp16 kernels for these models; "
                     "use fp32 or int8");
  throw UsageError("--precision " + rt.precision + " is unknown: use fp32 or int8");
}

OrtModel::OrtModel(const std::string& model, const RuntimeParams& rt, const std::string& role,
                   const std::string& flag, const CalibrationSource& int8_calibration)
    : impl_(std::make_unique<Impl>()) {
  check_precision(rt);
  source_path_ = path_ = resolve_model_file(model, flag);
  if (rt.precision == "int8" && int8_calibration) {
    const Int8Model m = int8_model(source_path_, role, rt, int8_calibration);
    path_ = m.path;
    precision_ = "int8";
    int8_plan_ = m.plan.why;
    if (m.plan.slower_than_fp32) note_int8_slower_once(m.plan.why);
  }
  auto& so = impl_->options;
  so.SetIntraOpNumThreads(effective_threads(rt.cpu_threads));
  so.SetInterOpNumThreads(std::clamp(rt.inter_op_threads, 1, logical_cpu_count()));
  so.SetExecutionMode(ExecutionMode::ORT_SEQUENTIAL);
  so.SetGraphOptimizationLevel(graph_level(rt.graph_optimization));
  if (!rt.memory_arena) so.DisableCpuMemArena();
  if (rt.memory_arena && rt.shared_arena && !rt.use_gpu) {
    register_shared_cpu_arena();
    so.AddConfigEntry("session.use_env_allocators", "1");
  }
  if (!rt.memory_pattern) so.DisableMemPattern();
  so.AddConfigEntry("session.intra_op.allow_spinning", rt.allow_spinning ? "1" : "0");
  so.AddConfigEntry("session.inter_op.allow_spinning", rt.allow_spinning ? "1" : "0");
  if (rt.use_gpu) {
    const auto providers = onnxruntime_providers();
    if (std::find(providers.begin(), providers.end(), "CUDAExecutionProvider") == providers.end()) {
      std::string list;
      for (const auto& p : providers) list += (list.empty() ? "" : ", ") + p;
      throw Error("--use_gpu=True: this ONNX Runtime build has no CUDA execution provider (it has: " + list +
                  "); run with --use_gpu=False, or build with -DONNXRUNTIME_ROOT=<a CUDA-enabled ONNX Runtime>");
    }
    OrtCUDAProviderOptions cuda{};
    cuda.device_id = rt.gpu_id;
    so.AppendExecutionProvider_CUDA(cuda);
  }
  if (rt.ir_optim && precision_ == "fp32") {
    MappedBytes simplified;
    if (simplified_model(path_, &simplified)) {
      try {
        impl_->session = std::make_unique<Ort::Session>(ort_env(), simplified.data(), simplified.size(), so);
        simplified_ = true;
      } catch (const Ort::Exception& e) {
        // A rewrite ORT refuses must never cost the user the model: run the file.
        std::fprintf(stderr, "warning: the simplified form of %s model '%s' did not load (%s); running the file as "
                     "it is (--ir_optim=False silences this)\n", role.c_str(), path_.c_str(), e.what());
      }
    }
  }
  try {
    if (!impl_->session) impl_->session = std::make_unique<Ort::Session>(ort_env(), path_.c_str(), so);
  } catch (const Ort::Exception& e) {
    throw Error("cannot load " + role + " model '" + path_ + "' (" + flag + "): " + e.what());
  }
  auto& s = *impl_->session;
  if (s.GetInputCount() != 1 || s.GetOutputCount() < 1)
    throw Error("'" + path_ + "' is not a PP-OCR " + role + " model: it has " +
                std::to_string(s.GetInputCount()) + " inputs (expected 1); check " + flag);
  Ort::AllocatorWithDefaultOptions alloc;
  input_name_ = s.GetInputNameAllocated(0, alloc).get();
  for (size_t i = 0; i < s.GetOutputCount(); ++i) output_names_.push_back(s.GetOutputNameAllocated(i, alloc).get());
  output_name_ = output_names_[0];
  // The shape infos are views into the TypeInfo objects: keep those alive.
  Ort::TypeInfo in_type = s.GetInputTypeInfo(0);
  Ort::TypeInfo out_type = s.GetOutputTypeInfo(0);
  auto in_info = in_type.GetTensorTypeAndShapeInfo();
  auto out_info = out_type.GetTensorTypeAndShapeInfo();
  if (in_info.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT ||
      out_info.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT)
    throw Error("'" + path_ + "' is not a PP-OCR " + role + " model: input/output are not float32; check " + flag);
  input_shape_ = in_info.GetShape();
  output_shape_ = out_info.GetShape();
}

OrtModel::~OrtModel() = default;

double OrtModel::run_ms() const {
  std::lock_guard<std::mutex> lock(timing_mutex_);
  return run_ms_;
}

void OrtModel::reset_timing() {
  std::lock_guard<std::mutex> lock(timing_mutex_);
  run_ms_ = 0;
}

std::vector<TensorView> OrtModel::run_outputs(const float* data, const std::vector<int64_t>& shape, size_t count,
                                              double* run_ms_out) {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  auto input = Ort::Value::CreateTensor<float>(impl_->memory, const_cast<float*>(data), static_cast<size_t>(n),
                                               shape.data(), shape.size());
  const char* in_names[] = {input_name_.c_str()};
  std::vector<const char*> out_names;
  for (size_t i = 0; i < count; ++i) out_names.push_back(output_names_[i].c_str());
  Stopwatch sw;
  std::vector<Ort::Value> outputs;
  try {
    outputs = impl_->session->Run(Ort::RunOptions{nullptr}, in_names, &input, 1, out_names.data(), count);
  } catch (const Ort::Exception& e) {
    throw Error("model '" + path_ + "' failed on input " + shape_to_string(shape) + ": " + e.what());
  }
  const double ms = sw.elapsed_ms();
  if (run_ms_out) *run_ms_out = ms;
  {
    std::lock_guard<std::mutex> lock(timing_mutex_);
    run_ms_ += ms;
  }
  std::vector<TensorView> views;
  for (auto& o : outputs) {
    auto holder = std::make_shared<Ort::Value>(std::move(o));
    TensorView view;
    view.shape = holder->GetTensorTypeAndShapeInfo().GetShape();
    view.data = holder->GetTensorData<float>();
    view.holder = holder;
    views.push_back(std::move(view));
  }
  return views;
}

TensorView OrtModel::run(const float* data, const std::vector<int64_t>& shape, double* run_ms_out) {
  return std::move(run_outputs(data, shape, 1, run_ms_out)[0]);
}

std::vector<TensorView> OrtModel::run_all(const float* data, const std::vector<int64_t>& shape) {
  return run_outputs(data, shape, output_names_.size(), nullptr);
}

}  // namespace ocrforge
