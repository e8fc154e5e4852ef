// Private state of Trainer, shared by trainer.cpp (set-up, saving,
// evaluation) and trainer_loop.cpp (the loop). Not installed API.
#pragma once
#include <memory>
#include <string>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/train/data/batch_loader.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/schedule.h"
#include "ocrforge/train/loop/train_log.h"
#include "ocrforge/train/loop/train_monitor.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/training_curve.h"
#include "ocrforge/train/optim/lr_schedule.h"
#include "ocrforge/train/optim/optimizer_spec.h"

namespace ocrforge {

struct Trainer::State {
  torch::Device device{torch::kCPU};
  std::unique_ptr<Task> task;
  OptimizerSpec opt_spec;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<LrSchedule> lr;
  std::unique_ptr<Schedule> schedule;
  std::unique_ptr<BatchLoader> train_loader, eval_loader;
  std::shared_ptr<FolderLock> save_dir_lock;  // Global.save_model_dir, held while this trainer lives (rank 0, training)
  std::unique_ptr<TrainLog> log;
  std::unique_ptr<TrainMonitor> monitor;  // Global.metrics_port, rank 0 only
  TrainingCurve curve;
  TrainProgress progress;
  bool bf16_autocast = false;  // Global.use_amp on a CPU with native bf16 (loop/cpu_bf16.h)
  long resume_batch = 0;  // batches of `progress.epoch + 1` already trained (mid-epoch resume)
};

}  // namespace ocrforge
