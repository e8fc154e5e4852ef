// Recognition (CTC) as a training task: SVTR_LCNet / CRNN models
// (models/rec_model.h) or a deployed ONNX recognizer (algorithm ONNX,
// onnx/onnx_arch.h: CTC on the logits that feed its final Softmax), the rec
// data pipeline, CTC (or focal CTC) loss, acc / norm_edit_dis from greedy CTC
// decoding (the inference decoder). A MultiHead with a SARHead (PP-OCRv3)
// or an NRTRHead (PP-OCRv4 / v5) trains with Loss MultiLoss (CTCLoss +
// SARLoss / NRTRLoss, rec_loss_spec.h); evaluation reads the CTC branch, as
// PaddleOCR's. An NRTRHead whose NRTRLoss the run does not list is left out
// (a CTC-only fine-tune).
#pragma once
#include "ocrforge/core/charset.h"
#include "ocrforge/train/tasks/rec/rec_loss_spec.h"
#include "ocrforge/train/tasks/rec/rec_model.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/train/tasks/task_registry.h"

namespace ocrforge {

class RecTask : public Task {
 public:
  // Reads Global.character_dict_path / use_space_char / max_text_length,
  // Architecture, Loss (CTCLoss or MultiLoss), Metric.ignore_space.
  RecTask(const Config& config, const TrainerSpec& options, torch::Device device);

  torch::nn::Module& model() override;
  std::string architecture_text() const override { return arch_text_; }
  // Also PaddleOCR's inference.onnx of a PPLCNetV3 recognizer (rec_paddle_onnx.h).
  PretrainedReport load_pretrained_weights(const std::string& path) override;
  std::optional<float> pinned_l2_decay(const std::string& name) const override;
  void to_device(torch::Device device) override;
  std::unique_ptr<BatchLoader> make_loader(const std::string& section, bool training, int rank,
                                           int world_size) override;
  StepLoss train_step(const Batch& batch) override;
  MetricSums train_metrics(const Batch& batch, const StepLoss& step) override;
  EvalMetrics evaluate(BatchLoader& loader, const std::function<void(size_t, size_t)>& progress) override;
  void report_eval_samples(EvalSampleSink sink) override { sample_sink_ = std::move(sink); }
  std::string default_main_indicator() const override { return "acc"; }
  std::vector<std::string> startup_warnings() const override;
  std::vector<std::string> startup_info() const override { return info_; }

  // use_guide without a trained SAR / NRTR branch would leave the backbone
  // untrained: UsageError (checked before training, not for evaluation).
  void check_trainable() const override;
  void export_inference(const Config& config, const std::string& out_dir, ExportReport& report) override;
  std::string own_weights() const override;
  InferenceForward inference_forward(const Config& config, const std::string& checkpoint,
                                     const std::string& flag) override;
  const Charset& charset() const { return charset_; }
  const RecLossSpec& loss_spec() const { return loss_; }
  RecModel rec_model() const { return model_; }     // null for algorithm ONNX
  OnnxGraphModule onnx_model() const { return onnx_; }  // null for native models

 private:
  // `r` plus a warning when use_guide leaves the backbone to a guidance branch
  // the weights did not hold.
  PretrainedReport with_guide_warning(PretrainedReport r) const;
  // N x T x classes logits of a batch of images (on device_).
  torch::Tensor logits(const torch::Tensor& images);
  void load_onnx(const YAML::Node& architecture);
  // Pairs the Loss with the architecture (MultiLoss <-> SARHead / NRTRHead)
  // and says what the guidance branch does.
  void check_loss();

  const Config& config_;
  EvalSampleSink sample_sink_;
  Charset charset_;
  RecArchSpec arch_;
  std::string arch_text_;
  RecModel model_{nullptr};
  OnnxGraphModule onnx_{nullptr};
  std::string onnx_logits_;  // the ONNX graph's pre-softmax value
  std::vector<std::string> info_;
  std::vector<std::string> warnings_;
  torch::Device device_{torch::kCPU};
  int max_text_length_ = 25;
  uint64_t seed_ = 1024;
  RecLossSpec loss_;
  int64_t sar_ignore_index_ = -1;  // SARLoss's: the <PAD> index
  bool ignore_space_ = true;
};

// The Train / Eval loader of a recognition config section (the same for a
// single model and a distillation): the rank's shard when training.
// `guide_label` "label_sar" / "label_gtc": a SAR / NRTR branch trains on
// this section, so its transforms must make that label (MultiLabelEncode,
// with gtc_encode: NRTRLabelEncode for label_gtc; UsageError otherwise).
// `notes`, when given, receives one line on MultiLabelEncode's length rule.
std::unique_ptr<BatchLoader> make_rec_loader(const Config& config, const std::string& section, bool training, int rank,
                                             int world_size, const Charset& charset, int max_text_length,
                                             uint64_t seed, const std::string& guide_label = "",
                                             std::vector<std::string>* notes = nullptr);

// PaddleOCR's use_guide stops the CTC gradient at the backbone, which then
// learns through the SAR / NRTR branch of MultiHead. With that branch left
// out (dropped_heads) the guide is turned off (the backbone learns through
// the CTC branch) and the returned warning says so; "" when nothing changed.
// `where` names the section ("Architecture").
std::string drop_guide_without_branch(RecArchSpec& arch, const std::string& where);

// "<where> MultiHead: only the CTC branch is trained; left out: NRTRHead ...",
// or "" when MultiHead dropped no branch. `where` may be "" (the whole config).
std::string dropped_heads_warning(const RecArchSpec& arch, const std::string& where);

// The <PAD> index SARLoss ignores for `arch`'s SAR head (its out_channels - 1);
// UsageError naming `path` (the SARLoss entry) when `given` is another index.
int64_t sar_ignore_index(const SarHeadSpec& sar, const std::optional<long>& given, const std::string& path);

// "<where> SARHead (training only): ... parameters ...", for the start of the log.
std::string sar_branch_info(const RecModel& model, int64_t ignore_index, const std::string& where);
// The same for the NRTR branch.
std::string nrtr_branch_info(const RecModel& model, bool smoothing, const std::string& where);

// The registry's line for RecTask (task_registry.cpp): Architecture.model_type rec, not a distillation: native CTC networks and ONNX recognizers.
bool rec_task_takes(const TaskKey& k);
std::unique_ptr<Task> make_rec_task(const Config& config, const TrainerSpec& options, torch::Device device);

}  // namespace ocrforge
