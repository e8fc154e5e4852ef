#include "ocrforge/train/loop/train_log.h"

#include <cstdio>
#include <ctime>
#include <iostream>

#include "ocrforge/core/error.h"

namespace ocrforge {

TrainLog::TrainLog(const std::string& path, bool enabled) : enabled_(enabled) {
  if (enabled_ && !path.empty()) {
    file_.open(path, std::ios::app);
    if (!file_) throw Error("cannot write training log '" + path + "': check Global.save_model_dir");
  }
}

void TrainLog::write(const std::string& level, const std::string& message) {
  if (!enabled_) return;
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof(stamp), "[%Y/%m/%d %H:%M:%S]", std::localtime(&now));
  const std::string line = std::string(stamp) + " ocrforge " + level + ": " + message + "\n";
  std::cout << line << std::flush;
  if (file_.is_open()) file_ << line << std::flush;
}

void TrainLog::info(const std::string& message) { write("INFO", message); }
void TrainLog::warning(const std::string& message) { write("WARNING", message); }

std::string format_eta(double seconds) {
  long s = seconds > 0 ? static_cast<long>(seconds) : 0;
  const long days = s / 86400;
  s %= 86400;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%ld:%02ld:%02ld", s / 3600, (s % 3600) / 60, s % 60);
  if (days == 0) return buf;
  return std::to_string(days) + (days == 1 ? " day, " : " days, ") + buf;
}

std::string format_step_line(const StepLogFields& f) {
  char buf[128];
  std::string out = "epoch: [" + std::to_string(f.epoch) + "/" + std::to_string(f.epochs) +
                    "], global_step: " + std::to_string(f.global_step);
  std::snprintf(buf, sizeof(buf), ", lr: %.6f", f.lr);
  out += buf;
  for (const auto& [name, value] : f.metrics) {
    std::snprintf(buf, sizeof(buf), ", %s: %.6f", name.c_str(), value);
    out += buf;
  }
  const double ips = f.batch_cost_s > 0 ? f.samples / f.batch_cost_s : 0.0;
  std::snprintf(buf, sizeof(buf), ", avg_reader_cost: %.5f s, avg_batch_cost: %.5f s, avg_samples: %.1f, ips: %.5f samples/s",
                f.reader_cost_s, f.batch_cost_s, f.samples, ips);
  out += buf;
  return out + ", eta: " + format_eta(f.eta_s);
}

std::vector<std::string> missing_weight_lines(const std::vector<std::string>& missing) {
  std::map<std::string, size_t> per_module;
  const auto module_of = [](const std::string& k) { return k.substr(0, k.find('.')); };
  for (const auto& k : missing) ++per_module[module_of(k)];
  std::vector<std::string> lines;
  std::map<std::string, bool> reported;
  for (const auto& k : missing) {
    const std::string m = module_of(k);
    if (per_module[m] <= 3) {
      lines.push_back("pretrained: no weight for " + k + " (kept its initial value)");
    } else if (!reported[m]) {
      reported[m] = true;
      lines.push_back("pretrained: no weights for the " + std::to_string(per_module[m]) + " tensors of " + m +
                      ".* (kept their initial values)");
    }
  }
  return lines;
}

}  // namespace ocrforge
