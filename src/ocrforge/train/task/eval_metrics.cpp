#include "ocrforge/core/error.h"
#include "ocrforge/train/task/task.h"

namespace ocrforge {

double EvalMetrics::get(const std::string& name) const {
  std::string known;
  for (const auto& [k, v] : values) {
    if (k == name) return v;
    known += (known.empty() ? "" : ", ") + k;
  }
  throw UsageError("Metric.main_indicator: '" + name + "' is not a metric of this task (known: " + known + ")");
}

}  // namespace ocrforge
