// What every rank must agree on after a training step, in one collective:
// whether to stop (any rank got SIGINT/SIGTERM), and the training metrics
// of the whole global batch (not just this rank's share), so the log line
// of a distributed run reads like a single process's at the same batch.
#pragma once
#include "ocrforge/train/loop/communicator.h"
#include "ocrforge/vision/rec_metric.h"

namespace ocrforge {

struct StepAgreement {
  bool stop = false;
  double acc = 0.0;            // over all ranks' samples (0 when metric is null)
  double norm_edit_dis = 0.0;  // idem
};

// metric: this rank's metric over its batch, or null when
// Global.cal_metric_during_train is off.
StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const RecMetric* metric);

}  // namespace ocrforge
