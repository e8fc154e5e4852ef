// What every rank must agree on after a training step, in one collective:
// whether to stop (any rank got SIGINT/SIGTERM), and the training metrics
// of the whole global batch (not just this rank's share), so the log line
// of a distributed run reads like a single process's at the same batch.
#pragma once
#include <cstddef>

#include "ocrforge/train/dist/communicator.h"
#include "ocrforge/train/tasks/task.h"
#include "ocrforge/vision/rec_metric.h"

namespace ocrforge {

struct StepAgreement {
  bool stop = false;
  NamedValues metrics;         // sum over ranks / count over ranks, in the task's order
  double acc = 0.0;            // "acc" of `metrics` (0 when absent): recognition's log
  double norm_edit_dis = 0.0;  // idem
};

// metrics: this rank's per-sample sums over its batch, or null when
// Global.cal_metric_during_train is off. Ranks with different batch sizes
// (the remainder of an epoch) weigh by their samples.
StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const MetricSums* metrics);
// Recognition shorthand: acc and norm_edit_dis of `metric`.
StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const RecMetric* metric);
// No metrics (Global.cal_metric_during_train off): the stop flag only.
inline StepAgreement agree_after_step(Communicator& comm, bool stop_requested, std::nullptr_t) {
  return agree_after_step(comm, stop_requested, static_cast<const MetricSums*>(nullptr));
}

}  // namespace ocrforge
