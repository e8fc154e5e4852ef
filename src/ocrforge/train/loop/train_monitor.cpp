// The registered training monitor (train_monitor.h).
#include "ocrforge/train/loop/train_monitor.h"

#include <mutex>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

std::mutex& factory_mutex() {
  static std::mutex m;
  return m;
}

TrainMonitorFactory& factory() {
  static TrainMonitorFactory f;
  return f;
}

}  // namespace

void register_train_monitor(TrainMonitorFactory f) {
  std::lock_guard<std::mutex> lock(factory_mutex());
  factory() = std::move(f);
}

std::unique_ptr<TrainMonitor> make_train_monitor(const std::string& host, int port) {
  TrainMonitorFactory f;
  {
    std::lock_guard<std::mutex> lock(factory_mutex());
    f = factory();
  }
  if (!f)
    throw UsageError("Global.metrics_port: this ocrforge was built without its HTTP server (OCRFORGE_WITH_SERVE=OFF); "
                     "rebuild with it, or leave Global.metrics_port unset");
  return f(host, port);
}

}  // namespace ocrforge
