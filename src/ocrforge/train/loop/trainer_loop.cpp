// Trainer::train: the epoch / step loop (PaddleOCR's program.train). What a
// step computes comes from the Task; when to log / evaluate / save from the
// Schedule; how gradients are combined from the Communicator.
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/smoothed_value.h"
#include "ocrforge/train/loop/step_agreement.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/cpu_bf16.h"
#include "ocrforge/train/loop/trainer_state.h"
#include "ocrforge/train/optim/optimizer_factory.h"

namespace ocrforge {

namespace {

// Smoothed values by name, remembering the order names first appeared in
// (the log line keeps PaddleOCR's order: metrics, loss, loss parts).
class SmoothedLog {
 public:
  explicit SmoothedLog(int window) : window_(window) {}
  void add(const std::string& name, double v) {
    auto it = values_.find(name);
    if (it == values_.end()) {
      it = values_.emplace(name, SmoothedValue(window_)).first;
      order_.push_back(name);
    }
    it->second.add(v);
  }
  double average(const std::string& name) const { return values_.at(name).average(); }
  NamedValues averages() const {
    NamedValues out;
    for (const auto& n : order_) out.emplace_back(n, values_.at(n).average());
    return out;
  }

 private:
  int window_;
  std::map<std::string, SmoothedValue> values_;
  std::vector<std::string> order_;
};

}  // namespace

TrainOutcome Trainer::train() {
  install_stop_signal_handlers();
  auto& s = *s_;
  if (!s.train_loader) throw Error("internal: Trainer built for evaluation cannot train");
  Task& task = *s.task;
  torch::nn::Module& model = task.model();
  const long steps_per_epoch = s.schedule->steps_per_epoch();
  SmoothedLog smoothed(opt_.log_smooth_window);
  SmoothedValue reader_cost(opt_.log_smooth_window), batch_cost(opt_.log_smooth_window), samples(opt_.log_smooth_window);
  // Wall time inside collectives (gradient all-reduce, loss mean, stop flag)
  // against the whole step time: tells a multi-node user whether the network
  // or a slower peer (waited for inside the all-reduce) limits the run.
  double comm_s = 0, step_s = 0;
  auto comm_timed = [&comm_s](auto&& f) {
    Stopwatch w;
    auto r = f();
    comm_s += w.elapsed_ms() / 1000.0;
    return r;
  };
  model.train();
  s.log->info("train: " + std::to_string(steps_per_epoch) + " steps per epoch, " + std::to_string(opt_.epoch_num) +
              " epochs, " + std::to_string(comm_->world_size()) + " worker(s)");

  for (int epoch = s.progress.epoch + 1; epoch <= opt_.epoch_num; ++epoch) {
    // Reseeding per epoch makes a resumed run draw the same random numbers
    // (dropout, augmentation) as an uninterrupted one.
    torch::manual_seed(opt_.seed + static_cast<uint64_t>(epoch));
    s.train_loader->start_epoch(epoch);
    s.train_loader->reset_reader_wait();
    // PaddleOCR computes the training metric in these epochs only (the same
    // on every rank, so the step's collective has the same shape everywhere).
    const bool metric_epoch = opt_.cal_metric_during_train && epoch % opt_.calc_epoch_interval == 0;
    long batch_index = 0;
    Batch batch;
    Stopwatch step_clock;
    while (s.train_loader->next(&batch)) {
      if (batch_index++ < s.resume_batch) {  // already trained before the interruption
        step_clock.reset();
        s.train_loader->reset_reader_wait();
        continue;
      }
      const double lr = s.lr->at(s.progress.global_step);
      set_learning_rate(*s.optimizer, lr);
      std::optional<CpuBf16Autocast> autocast;
      if (s.bf16_autocast) autocast.emplace();
      const StepLoss step = task.train_step(batch);
      autocast.reset();  // backward runs outside autocast
      // Mean over ranks of the loss and its parts: every rank sees a NaN on
      // any rank (and stops at the same step), and the log shows the loss of
      // the whole global batch.
      std::vector<double> local = {step.loss.item<double>()};
      for (const auto& p : step.parts) local.push_back(p.second);
      const std::vector<double> global = comm_timed([&] { return comm_->sum(local); });
      const double loss_value = global[0] / comm_->world_size();
      if (!std::isfinite(loss_value)) {
        s.log->warning("loss is " + std::to_string(loss_value) + " at epoch " + std::to_string(epoch) + ", global_step " +
                       std::to_string(s.progress.global_step) +
                       ": training stopped; the last saved checkpoint is kept (lower Optimizer.lr.learning_rate "
                       "or set Optimizer.clip_norm_global)");
        return TrainOutcome::NanLoss;
      }
      s.optimizer->zero_grad();
      step.loss.backward();
      comm_timed([&] {
        comm_->average_gradients(model);
        return 0;
      });
      clip_gradients(s.opt_spec, model);
      s.optimizer->step();
      s.progress.global_step += 1;

      MetricSums sums;
      if (metric_epoch) sums = task.train_metrics(batch, step);
      // One collective: the stop flag (all ranks stop at the same step) and
      // the metrics of the global batch.
      const StepAgreement agreed =
          comm_timed([&] { return agree_after_step(*comm_, stop_requested(), metric_epoch ? &sums : nullptr); });
      for (const auto& [name, v] : agreed.metrics) smoothed.add(name, v);
      smoothed.add("loss", loss_value);
      for (size_t i = 0; i < step.parts.size(); ++i)
        smoothed.add(step.parts[i].first, global[1 + i] / comm_->world_size());
      reader_cost.add(s.train_loader->reader_wait_ms() / 1000.0);
      const double step_seconds = step_clock.elapsed_ms() / 1000.0;
      batch_cost.add(step_seconds);
      step_s += step_seconds;
      samples.add(static_cast<double>(batch.size()));
      s.train_loader->reset_reader_wait();
      step_clock.reset();

      if (s.schedule->log_now(s.progress.global_step, batch_index == steps_per_epoch)) {
        StepLogFields f;
        f.epoch = epoch;
        f.epochs = opt_.epoch_num;
        f.global_step = s.progress.global_step;
        f.lr = lr;
        f.metrics = smoothed.averages();
        f.reader_cost_s = reader_cost.average();
        f.batch_cost_s = batch_cost.average();
        f.samples = samples.average();
        f.eta_s = batch_cost.average() * static_cast<double>(s.schedule->total_steps() - s.progress.global_step);
        s.log->info(format_step_line(f));
        if (s.monitor) s.monitor->on_step(f);
        s.curve.add_train_point(s.progress.global_step, smoothed.average("loss"), lr);
      }
      if (on_step_) on_step_(s.progress.global_step, model);
      maybe_evaluate();
      if (agreed.stop) {
        s.log->warning(stop_signal_number() ? "signal " + std::to_string(stop_signal_number()) +
                                                  " received: saving latest and stopping"
                                            : std::string("another worker received a stop signal: saving latest and stopping"));
        save("latest");
        return TrainOutcome::Stopped;
      }
    }
    s.resume_batch = 0;
    s.progress.epoch = epoch;
    save("latest");
    if (s.schedule->save_epoch_snapshot(epoch)) save("iter_epoch_" + std::to_string(epoch));
  }
  s.log->info("data: " + s.train_loader->stats().describe());
  if (comm_->world_size() > 1 && step_s > 0) {
    char line[160];
    std::snprintf(line, sizeof(line), "communication: %.1f s of %.1f s of training steps (%.1f%%) on rank %d", comm_s,
                  step_s, 100.0 * comm_s / step_s, comm_->rank());
    s.log->info(line);
  }
  s.log->info("best metric, " + opt_.main_indicator + ": " + std::to_string(s.progress.best_metric));
  return TrainOutcome::Completed;
}

}  // namespace ocrforge
