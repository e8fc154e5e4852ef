// The training loop (PaddleOCR's tools/train.py + program.train), split into
// roles: the Task (task/task.h) builds the model and data and turns a batch
// into a loss and an evaluation into metrics; the Schedule says when to log /
// evaluate / save; the Communicator combines gradients; the loader supplies
// batches; checkpoints are written atomically. The loop knows no task.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "ocrforge/core/config.h"
#include "ocrforge/train/dist/communicator.h"
#include "ocrforge/train/loop/trainer_spec.h"
#include "ocrforge/train/tasks/task.h"

namespace ocrforge {

enum class TrainOutcome { Completed, Stopped, NanLoss };
// Eval: no Train loader, nothing written to save_model_dir.
// Check (`ocrforge check -c`): the config validated and the task, optimizer
// and schedule built as for training, then nothing more: no loader, no
// weights loaded, nothing logged or written (loop/config_check.h).
enum class TrainerMode { Train, Eval, Check };

// Reads all of `config` as a training run would (trainer spec, task, the
// Train and Eval loaders and the optimiser, each when its section is there)
// without training or writing anything, and throws the UsageError a run would
// give for a wrong value or an unknown key (loop/config_keys.h). Data that
// cannot be read is not an error here: the keys read before it are checked.
// Returns the accepted-and-ignored keys it holds.
std::vector<std::string> check_config_keys(const Config& config);

class Trainer {
 public:
  // Validates the config, builds the task (model + data), optimizer and LR
  // schedule, loads Global.checkpoints (resume) or Global.pretrained_model
  // (weights). Throws Error / UsageError with the config key or file at fault.
  explicit Trainer(Config config, TrainerMode mode = TrainerMode::Train,
                   std::unique_ptr<Communicator> comm = make_single_process_communicator());
  ~Trainer();

  // Trains to Global.epoch_num. Stopped: SIGTERM/SIGINT, `latest` saved.
  // NanLoss: the loss became NaN/inf; nothing was saved after the last good state.
  TrainOutcome train();

  // Evaluates the current weights on the Eval section (`ocrforge eval`).
  EvalMetrics evaluate();

  const TrainerSpec& options() const { return opt_; }
  Task& task();

  // Called after every optimizer step with the global step and the model
  // (progress displays, tests that interrupt or corrupt a run mid-way).
  void set_step_callback(std::function<void(long, torch::nn::Module&)> callback) { on_step_ = std::move(callback); }

 private:
  struct State;
  void save(const std::string& name);
  void load_initial_weights();
  bool maybe_evaluate();
  TrainerSpec opt_;
  Config config_;
  std::unique_ptr<Communicator> comm_;
  std::unique_ptr<State> s_;
  std::function<void(long, torch::nn::Module&)> on_step_;
};

}  // namespace ocrforge
