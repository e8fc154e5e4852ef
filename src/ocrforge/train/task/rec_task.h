// Recognition (CTC) as a training task: SVTR_LCNet / CRNN models
// (models/rec_model.h), the rec data pipeline, CTC (or focal CTC) loss,
// acc / norm_edit_dis from greedy CTC decoding (the inference decoder).
#pragma once
#include "ocrforge/core/charset.h"
#include "ocrforge/train/models/rec_model.h"
#include "ocrforge/train/task/task.h"

namespace ocrforge {

class RecTask : public Task {
 public:
  // Reads Global.character_dict_path / use_space_char / max_text_length,
  // Architecture, Loss.use_focal_loss, Metric.ignore_space.
  RecTask(const Config& config, const TrainerOptions& options, torch::Device device);

  torch::nn::Module& model() override { return *model_; }
  std::string architecture_text() const override { return arch_text_; }
  std::optional<float> pinned_l2_decay(const std::string& name) const override { return model_->pinned_l2_decay(name); }
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  MetricSums train_metrics(const Batch& batch, const StepLoss& step) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  std::string default_main_indicator() const override { return "acc"; }
  std::vector<std::string> startup_warnings() const override;

  // use_guide without the SAR branch would leave the backbone untrained:
  // UsageError (checked before training, not for evaluation).
  void check_trainable() const override;
  const Charset& charset() const { return charset_; }
  RecModel rec_model() const { return model_; }

 private:
  const Config& config_;
  Charset charset_;
  RecArchSpec arch_;
  std::string arch_text_;
  RecModel model_{nullptr};
  torch::Device device_{torch::kCPU};
  int max_text_length_ = 25;
  uint64_t seed_ = 1024;
  bool use_focal_loss_ = false;
  bool ignore_space_ = true;
};

}  // namespace ocrforge
