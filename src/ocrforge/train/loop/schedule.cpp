#include "ocrforge/train/loop/schedule.h"

#include <algorithm>

#include "ocrforge/train/loop/trainer_spec.h"

namespace ocrforge {

Schedule::Schedule(const TrainerSpec& o, long steps_per_epoch)
    : steps_per_epoch_(std::max(1L, steps_per_epoch)),
      epochs_(o.epoch_num),
      print_batch_step_(std::max(1, o.print_batch_step)),
      eval_start_(o.eval_start),
      eval_interval_(std::max(1L, o.eval_interval)),
      save_epoch_step_(std::max(1, o.save_epoch_step)) {}

bool Schedule::log_now(long g, bool last_in_epoch) const { return g % print_batch_step_ == 0 || last_in_epoch; }

bool Schedule::evaluate_now(long g) const { return g > eval_start_ && (g - eval_start_) % eval_interval_ == 0; }

bool Schedule::save_epoch_snapshot(int epoch) const { return epoch % save_epoch_step_ == 0; }

long Schedule::batches_done_in_next_epoch(long g, int finished_epochs) const {
  return std::max(0L, g - static_cast<long>(finished_epochs) * steps_per_epoch_);
}

}  // namespace ocrforge
