// Recognition training (PaddleOCR's tools/train.py + program.train for rec
// models), split into roles: the trainer runs the loop; TrainerOptions says
// when to log / evaluate / save; the Communicator combines gradients; the
// loaders supply batches; checkpoints are written atomically.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "ocrforge/core/config.h"
#include "ocrforge/train/loop/communicator.h"
#include "ocrforge/train/loop/rec_evaluator.h"
#include "ocrforge/train/loop/trainer_options.h"

namespace ocrforge {

enum class TrainOutcome { Completed, Stopped, NanLoss };
// Eval: no Train loader, nothing written to save_model_dir.
enum class TrainerMode { Train, Eval };

class RecTrainer {
 public:
  // Validates the config, builds model, optimizer, schedule and loaders,
  // loads Global.checkpoints (resume) or Global.pretrained_model (weights).
  // Throws Error / UsageError with the config key or file at fault.
  explicit RecTrainer(Config config, TrainerMode mode = TrainerMode::Train,
                      std::unique_ptr<Communicator> comm = make_single_process_communicator());
  ~RecTrainer();

  // Trains to Global.epoch_num. Stopped: SIGTERM/SIGINT, `latest` saved.
  // NanLoss: the loss became NaN/inf; nothing was saved after the last good state.
  TrainOutcome train();

  // Evaluates the current weights on the Eval section (`ocrforge eval`).
  RecEvalResult evaluate();

  const TrainerOptions& options() const { return opt_; }

  // Called after every optimizer step with the global step and the model
  // (progress displays, tests that interrupt or corrupt a run mid-way).
  void set_step_callback(std::function<void(long, torch::nn::Module&)> callback) { on_step_ = std::move(callback); }

 private:
  struct State;
  void save(const std::string& name);
  bool maybe_evaluate();
  TrainerOptions opt_;
  Config config_;
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<State> s_;
  std::function<void(long, torch::nn::Module&)> on_step_;
};

}  // namespace ocrforge
