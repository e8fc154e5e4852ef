#include "ocrforge/train/loop/step_agreement.h"

namespace ocrforge {

StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const MetricSums* m) {
  std::vector<double> local = {stop_requested ? 1.0 : 0.0, m ? m->count : 0.0};
  if (m) local.insert(local.end(), m->sums.begin(), m->sums.end());
  const std::vector<double> g = comm.sum(local);
  StepAgreement a;
  a.stop = g[0] > 0.5;
  if (m && g[1] > 0) {
    for (size_t i = 0; i < m->names.size(); ++i) {
      const double v = g[2 + i] / g[1];
      a.metrics.emplace_back(m->names[i], v);
      if (m->names[i] == "acc") a.acc = v;
      if (m->names[i] == "norm_edit_dis") a.norm_edit_dis = v;
    }
  }
  return a;
}

StepAgreement agree_after_step(Communicator& comm, bool stop_requested, const RecMetric* metric) {
  if (!metric) return agree_after_step(comm, stop_requested, static_cast<const MetricSums*>(nullptr));
  const double n = static_cast<double>(metric->count());
  const MetricSums sums{{"acc", "norm_edit_dis"}, {metric->acc() * n, metric->norm_edit_dis() * n}, n};
  return agree_after_step(comm, stop_requested, &sums);
}

}  // namespace ocrforge
