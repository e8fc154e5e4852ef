// RecTrainer::train: the epoch / step loop (PaddleOCR's program.train).
#include <cmath>
#include <cstdio>

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/train/data/rec_loader.h"
#include "ocrforge/train/loop/checkpoint.h"
#include "ocrforge/train/loop/rec_trainer.h"
#include "ocrforge/train/loop/rec_trainer_state.h"
#include "ocrforge/train/loop/smoothed_value.h"
#include "ocrforge/train/loop/step_agreement.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/loop/train_log.h"
#include "ocrforge/train/loop/training_curve.h"
#include "ocrforge/train/models/ctc_loss.h"
#include "ocrforge/train/models/rec_model.h"
#include "ocrforge/train/optim/optimizer_factory.h"
#include "ocrforge/vision/rec_metric.h"

namespace ocrforge {


TrainOutcome RecTrainer::train() {
  install_stop_signal_handlers();
  auto& s = *s_;
  if (!s.train_loader) throw Error("internal: RecTrainer built for evaluation cannot train");
  const long steps_per_epoch = static_cast<long>(s.train_loader->batches_per_epoch());
  const long total_steps = steps_per_epoch * opt_.epoch_num;
  SmoothedValue loss_avg(opt_.log_smooth_window), acc_avg(opt_.log_smooth_window), ned_avg(opt_.log_smooth_window);
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
  s.model->train();
  s.log->info("train: " + std::to_string(steps_per_epoch) + " steps per epoch, " + std::to_string(opt_.epoch_num) +
              " epochs, " + std::to_string(comm_->world_size()) + " worker(s)");

  for (int epoch = s.progress.epoch + 1; epoch <= opt_.epoch_num; ++epoch) {
    // Reseeding per epoch makes a resumed run draw the same random numbers
    // (dropout, augmentation) as an uninterrupted one.
    torch::manual_seed(opt_.seed + static_cast<uint64_t>(epoch));
    s.train_loader->start_epoch(epoch);
    s.train_loader->reset_reader_wait();
    long batch_index = 0;
    RecBatch batch;
    Stopwatch step_clock;
    while (s.train_loader->next(&batch)) {
      if (batch_index++ < s.resume_batch) {  // already trained before the interruption
        step_clock.reset();
        s.train_loader->reset_reader_wait();
        continue;
      }
      const double lr = s.schedule->at(s.progress.global_step);
      set_learning_rate(*s.optimizer, lr);
      torch::Tensor images = batch.images.to(s.device);
      torch::Tensor logits = s.model->forward(images);
      torch::Tensor loss = ctc_loss(logits, batch.labels.to(s.device), batch.lengths.to(s.device), s.use_focal_loss);
      // Mean over ranks: every rank sees a NaN on any rank (and stops at the
      // same step), and the log shows the loss of the whole global batch.
      const double local_loss = loss.item<double>();
      const double loss_value = comm_timed([&] { return comm_->sum({local_loss})[0]; }) / comm_->world_size();
      if (!std::isfinite(loss_value)) {
        s.log->warning("loss is " + std::to_string(loss_value) + " at epoch " + std::to_string(epoch) + ", global_step " +
                       std::to_string(s.progress.global_step) +
                       ": training stopped; the last saved checkpoint is kept (lower Optimizer.lr.learning_rate "
                       "or set Optimizer.clip_norm_global)");
        return TrainOutcome::NanLoss;
      }
      s.optimizer->zero_grad();
      loss.backward();
      comm_timed([&] {
        comm_->average_gradients(*s.model);
        return 0;
      });
      clip_gradients(s.opt_spec, *s.model);
      s.optimizer->step();
      s.progress.global_step += 1;

      loss_avg.add(loss_value);
      RecMetric m(opt_.ignore_space);
      if (opt_.cal_metric_during_train) {
        const auto texts = decode_logits(logits, s.charset);
        for (size_t i = 0; i < texts.size(); ++i) m.add(texts[i], batch.texts[i]);
      }
      // One collective: the stop flag (all ranks stop at the same step) and
      // the metrics of the global batch.
      const StepAgreement agreed =
          comm_timed([&] { return agree_after_step(*comm_, stop_requested(), opt_.cal_metric_during_train ? &m : nullptr); });
      if (opt_.cal_metric_during_train) {
        acc_avg.add(agreed.acc);
        ned_avg.add(agreed.norm_edit_dis);
      }
      reader_cost.add(s.train_loader->reader_wait_ms() / 1000.0);
      const double step_seconds = step_clock.elapsed_ms() / 1000.0;
      batch_cost.add(step_seconds);
      step_s += step_seconds;
      samples.add(static_cast<double>(batch.texts.size()));
      s.train_loader->reset_reader_wait();
      step_clock.reset();

      const bool last_in_epoch = batch_index == steps_per_epoch;
      if (s.progress.global_step % opt_.print_batch_step == 0 || last_in_epoch) {
        StepLogFields f;
        f.epoch = epoch;
        f.epochs = opt_.epoch_num;
        f.global_step = s.progress.global_step;
        f.lr = lr;
        if (opt_.cal_metric_during_train) f.metrics = {{"acc", acc_avg.average()}, {"norm_edit_dis", ned_avg.average()}};
        f.metrics.push_back({"loss", loss_avg.average()});
        f.reader_cost_s = reader_cost.average();
        f.batch_cost_s = batch_cost.average();
        f.samples = samples.average();
        f.eta_s = batch_cost.average() * static_cast<double>(total_steps - s.progress.global_step);
        s.log->info(format_step_line(f));
        s.curve.add_train_point(s.progress.global_step, loss_avg.average(), lr);
      }
      if (on_step_) on_step_(s.progress.global_step, *s.model);
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
    if (epoch % opt_.save_epoch_step == 0) save("iter_epoch_" + std::to_string(epoch));
  }
  const DataStats ds = s.train_loader->stats();
  s.log->info("data: " + std::to_string(ds.missing_images) + " missing images, " + std::to_string(ds.undecodable) +
              " undecodable, " + std::to_string(ds.too_long) + " too long, " + std::to_string(ds.empty_label) +
              " empty labels (replaced); " + std::to_string(ds.dropped_chars) + " characters not in the dictionary dropped");
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
