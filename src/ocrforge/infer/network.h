// A predictor's network as TextDetector / TextRecognizer / TextClassifier
// use it: an NCHW float batch in, the first output out. ONNX Runtime models
// (ort_model.h) and training checkpoints (the train layer's LibTorch
// networks, checkpoint_networks.h) both implement it, so a checkpoint and its
// export are read with the same resize, batching and decoding code.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ocrforge {

// Output of a run: a view of the network's buffer, kept alive by `holder` (no copy).
struct TensorView {
  const float* data = nullptr;
  std::vector<int64_t> shape;
  std::shared_ptr<void> holder;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

class Network {
 public:
  virtual ~Network() = default;
  // Runs the network on an NCHW float tensor. Safe to call from several
  // threads at once. `run_ms_out`, when given, receives this call's time,
  // which is also added to run_ms().
  virtual TensorView run(const float* data, const std::vector<int64_t>& shape, double* run_ms_out = nullptr) = 0;
  // Declared shapes; dynamic dimensions are -1.
  virtual const std::vector<int64_t>& input_shape() const = 0;
  virtual const std::vector<int64_t>& output_shape() const = 0;
  // The file loaded (an int8 cache file, a .onnx, a .ckpt).
  virtual const std::string& path() const = 0;
  // "fp32" or "int8": what this network actually runs.
  virtual const std::string& precision() const = 0;
  // Under --precision int8: the CPU kind and weight scheme (int8_model.h); "" otherwise.
  virtual const std::string& int8_plan() const = 0;
  // Total time inside run() since construction or reset_timing().
  virtual double run_ms() const = 0;
  virtual void reset_timing() = 0;
};

}  // namespace ocrforge
