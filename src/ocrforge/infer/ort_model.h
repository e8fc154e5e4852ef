// One ONNX Runtime session (RAII) with a single float input and a single
// float output, as the PP-OCR det / cls / rec models have. ORT types stay in
// the .cpp so users of ocrforge::infer do not compile ORT's headers.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/network.h"
#include "ocrforge/infer/params.h"

namespace ocrforge {


class OrtModel : public Network {
 public:
  // `model` is a .onnx file or a folder holding inference.onnx (or exactly one
  // .onnx file). `role` ("det", "rec", "cls") and `flag` (e.g.
  // "--det_model_dir") only make error messages precise.
  // runtime.precision "int8" loads the cached int8 form of the model
  // (int8_model.h) when `int8_calibration` is given (det, rec); a model
  // without one (cls) runs fp32, and precision() says so. On a CPU where int8
  // is slower than fp32 (no VNNI) a note on stderr says so once. With
  // runtime.ir_optim (the default) an fp32 model runs its exact simplified
  // graph (onnx/onnx_simplify.h), made in memory here; simplified() says so.
  OrtModel(const std::string& model, const RuntimeParams& runtime, const std::string& role,
           const std::string& flag, const CalibrationSource& int8_calibration = {});
  ~OrtModel() override;
  OrtModel(const OrtModel&) = delete;
  OrtModel& operator=(const OrtModel&) = delete;

  // Runs the model on an NCHW float tensor. Adds the time spent inside ORT's
  // Run to run_ms(). Safe to call from several threads at once (ORT sessions
  // are); `run_ms_out`, when given, receives this call's own time.
  TensorView run(const float* data, const std::vector<int64_t>& shape, double* run_ms_out = nullptr) override;
  // Every output, in output_names() order (int8 calibration reads them all).
  std::vector<TensorView> run_all(const float* data, const std::vector<int64_t>& shape);

  // The file loaded: the int8 cache file under --precision int8.
  const std::string& path() const override { return path_; }
  // The model the user named, resolved to a file (== path() for fp32).
  const std::string& source_path() const { return source_path_; }
  // "fp32" or "int8": what this model actually runs.
  const std::string& precision() const override { return precision_; }
  // Under --precision int8: the CPU kind and the weight scheme chosen (or why
  // fp32 runs), int8_model.h's Int8Plan::why; "" otherwise.
  const std::string& int8_plan() const override { return int8_plan_; }
  // True when the session runs the simplified graph (--ir_optim), not the file's.
  bool simplified() const { return simplified_; }
  const std::vector<std::string>& output_names() const { return output_names_; }
  // Declared shapes; dynamic dimensions are -1.
  const std::vector<int64_t>& input_shape() const override { return input_shape_; }
  const std::vector<int64_t>& output_shape() const override { return output_shape_; }
  const std::string& input_name() const { return input_name_; }
  const std::string& output_name() const { return output_name_; }
  double run_ms() const override;
  void reset_timing() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<TensorView> run_outputs(const float* data, const std::vector<int64_t>& shape, size_t count,
                                      double* run_ms_out);
  std::string path_, source_path_, precision_ = "fp32", int8_plan_, input_name_, output_name_;
  std::vector<std::string> output_names_;
  std::vector<int64_t> input_shape_, output_shape_;
  bool simplified_ = false;
  mutable std::mutex timing_mutex_;  // run() may be called from several threads
  double run_ms_ = 0;
};

// Resolves --*_model_dir to a .onnx file; throws Error naming the flag.
std::string resolve_model_file(const std::string& model, const std::string& flag);
// "[-1, 3, 48, -1]" for messages and reports.
std::string shape_to_string(const std::vector<int64_t>& shape);
// Threads ORT uses for --cpu_threads: the value itself, at least 1 and at
// most the CPUs this process may use (logical_cpu_count).
int effective_threads(int requested);
// ONNX Runtime's version string and its execution providers.
std::string onnxruntime_version();
std::vector<std::string> onnxruntime_providers();

}  // namespace ocrforge
