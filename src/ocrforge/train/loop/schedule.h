// When the training loop logs, evaluates and saves (PaddleOCR's program.train
// rules), as one object the loop asks, so the loop itself stays short and
// the rules are tested on their own.
#pragma once

namespace ocrforge {

struct TrainerSpec;

class Schedule {
 public:
  Schedule(const TrainerSpec& options, long steps_per_epoch);

  long steps_per_epoch() const { return steps_per_epoch_; }
  long total_steps() const { return steps_per_epoch_ * epochs_; }
  // A log line every print_batch_step steps and at the end of each epoch.
  bool log_now(long global_step, bool last_in_epoch) const;
  // PaddleOCR: global_step > start and (global_step - start) % interval == 0.
  bool evaluate_now(long global_step) const;
  // iter_epoch_N every save_epoch_step epochs (latest is saved every epoch).
  bool save_epoch_snapshot(int epoch) const;
  // Batches of `epoch` (1-based) already trained by a checkpoint saved at
  // `global_step` after `finished_epochs` whole epochs (mid-epoch resume).
  long batches_done_in_next_epoch(long global_step, int finished_epochs) const;

 private:
  long steps_per_epoch_;
  int epochs_;
  int print_batch_step_;
  long eval_start_, eval_interval_;
  int save_epoch_step_;
};

}  // namespace ocrforge
