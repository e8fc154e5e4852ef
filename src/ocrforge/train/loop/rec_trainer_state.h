// Private state of RecTrainer, shared by rec_trainer.cpp (set-up, saving,
// evaluation) and rec_trainer_loop.cpp (the loop). Not installed API.
#pragma once
#include <memory>
#include <string>

#include "ocrforge/core/charset.h"
#include "ocrforge/train/data/rec_loader.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/rec_trainer.h"
#include "ocrforge/train/loop/train_log.h"
#include "ocrforge/train/loop/training_curve.h"
#include "ocrforge/train/models/rec_arch_spec.h"
#include "ocrforge/train/models/rec_model.h"
#include "ocrforge/train/optim/lr_schedule.h"
#include "ocrforge/train/optim/optimizer_spec.h"

namespace ocrforge {

struct RecTrainer::State {
  Charset charset;
  RecArchSpec arch;
  std::string arch_text;
  RecModel model{nullptr};
  torch::Device device{torch::kCPU};
  OptimizerSpec opt_spec;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<LrSchedule> schedule;
  std::unique_ptr<RecDataLoader> train_loader, eval_loader;
  std::unique_ptr<TrainLog> log;
  TrainingCurve curve;
  TrainProgress progress;
  long resume_batch = 0;  // batches of `progress.epoch + 1` already trained (mid-epoch resume)
  bool use_focal_loss = false;
  std::string dropped_heads_warning;  // MultiHead branches not built (SAR, NRTR)
};

}  // namespace ocrforge
