// A LibTorch module as an inference Network (torch_network.h).
#include "ocrforge/train/nn/torch_network.h"

#include "ocrforge/core/stopwatch.h"

namespace ocrforge {

TorchNetwork::TorchNetwork(std::string path, std::shared_ptr<void> model,
                           std::function<torch::Tensor(const torch::Tensor&)> forward, std::vector<int64_t> input_shape,
                           std::vector<int64_t> output_shape, int threads)
    : path_(std::move(path)),
      model_(std::move(model)),
      forward_(std::move(forward)),
      input_shape_(std::move(input_shape)),
      output_shape_(std::move(output_shape)) {
  at::set_num_threads(std::max(1, threads));
}

TensorView TorchNetwork::run(const float* data, const std::vector<int64_t>& shape, double* run_ms_out) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stopwatch sw;
  torch::NoGradGuard no_grad;
  // from_blob does not copy; the forward reads the caller's buffer.
  const torch::Tensor x = torch::from_blob(const_cast<float*>(data), shape, torch::kFloat32);
  auto out = std::make_shared<torch::Tensor>(forward_(x).to(torch::kFloat32).contiguous());
  TensorView v;
  v.data = out->data_ptr<float>();
  v.shape.assign(out->sizes().begin(), out->sizes().end());
  v.holder = out;
  const double ms = sw.elapsed_ms();
  run_ms_ += ms;
  if (run_ms_out) *run_ms_out = ms;
  return v;
}

double TorchNetwork::run_ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return run_ms_;
}

void TorchNetwork::reset_timing() {
  std::lock_guard<std::mutex> lock(mutex_);
  run_ms_ = 0;
}

}  // namespace ocrforge
