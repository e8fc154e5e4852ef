#include "ocrforge/train/loop/step_agreement.h"

namespace ocrforge {

StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const RecMetric* metric) {
  const double n = metric ? static_cast<double>(metric->count()) : 0.0;
  // Sums of per-sample values, so ranks with different batch sizes (the
  // remainder of an epoch) weigh by their samples.
  const std::vector<double> g = comm.sum({stop_requested ? 1.0 : 0.0, metric ? metric->acc() * n : 0.0,
                                          metric ? metric->norm_edit_dis() * n : 0.0, n});
  StepAgreement a;
  a.stop = g[0] > 0.5;
  if (metric && g[3] > 0) {
    a.acc = g[1] / g[3];
    a.norm_edit_dis = g[2] / g[3];
  }
  return a;
}

}  // namespace ocrforge
