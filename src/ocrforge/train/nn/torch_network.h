// A LibTorch module as an inference Network (infer/network.h): what the
// predictors run when --*_model_dir names a training checkpoint.
#pragma once
#include <torch/torch.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "ocrforge/infer/network.h"

namespace ocrforge {

class TorchNetwork : public Network {
 public:
  // `forward` maps an NCHW float batch to what the exported model outputs
  // (probabilities), under NoGradGuard; `model` is kept alive with it.
  // `input_shape` / `output_shape`: declared, -1 for dynamic.
  TorchNetwork(std::string path, std::shared_ptr<void> model, std::function<torch::Tensor(const torch::Tensor&)> forward,
               std::vector<int64_t> input_shape, std::vector<int64_t> output_shape, int threads);

  TensorView run(const float* data, const std::vector<int64_t>& shape, double* run_ms_out = nullptr) override;
  const std::vector<int64_t>& input_shape() const override { return input_shape_; }
  const std::vector<int64_t>& output_shape() const override { return output_shape_; }
  const std::string& path() const override { return path_; }
  const std::string& precision() const override { return precision_; }
  const std::string& int8_plan() const override { return int8_plan_; }
  double run_ms() const override;
  void reset_timing() override;

 private:
  std::string path_, precision_ = "fp32", int8_plan_;
  std::shared_ptr<void> model_;
  std::function<torch::Tensor(const torch::Tensor&)> forward_;
  std::vector<int64_t> input_shape_, output_shape_;
  // One forward at a time: LibTorch's intra-op threads serve every caller.
  mutable std::mutex mutex_;
  double run_ms_ = 0;
};

}  // namespace ocrforge
