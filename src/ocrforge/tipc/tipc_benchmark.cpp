#include "ocrforge/tipc/tipc_benchmark.h"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "ocrforge/core/error.h"

namespace ocrforge {

DeviceNum parse_device_num(const std::string& text) {
  static const std::regex re("N([1-9][0-9]*)C([1-9][0-9]*)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw UsageError("benchmark device '" + text + "': expected N<nodes>C<cards>, e.g. N1C1 or N1C4");
  DeviceNum d;
  d.nodes = std::stoi(m[1].str());
  d.cards = std::stoi(m[2].str());
  if (d.cards < d.nodes) throw UsageError("benchmark device '" + text + "': fewer cards than nodes");
  return d;
}

TrainLogSpeed read_train_log_speed(const std::string& log_text) {
  TrainLogSpeed s;
  std::istringstream in(log_text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string prev;
    for (std::string w; words >> w; prev = w) {
      // PaddleOCR's analysis takes the word after the keyword; a trailing ',' is not part of the number.
      std::vector<double>* into = prev == "ips:" ? &s.ips : prev == "loss:" ? &s.losses : nullptr;
      if (!into) continue;
      char* end = nullptr;
      const double v = std::strtod(w.c_str(), &end);
      if (end != w.c_str()) into->push_back(v);
    }
  }
  return s;
}

std::string benchmark_json(const TipcBenchmarkRun& run, const TrainLogSpeed& speed, const std::string& log_path,
                           double run_seconds, const std::string& frame_version, int skip_steps) {
  if (speed.ips.size() <= static_cast<size_t>(skip_steps))
    throw Error("benchmark: '" + log_path + "' has " + std::to_string(speed.ips.size()) +
                " 'ips:' records, the first " + std::to_string(skip_steps) +
                " are skipped; train more steps (train_benchmark_params epoch) or log more often "
                "(Global.print_batch_step)");
  double sum = 0;
  for (size_t i = static_cast<size_t>(skip_steps); i < speed.ips.size(); ++i) sum += speed.ips[i];
  const double per_card = sum / static_cast<double>(speed.ips.size() - static_cast<size_t>(skip_steps));
  const DeviceNum d = parse_device_num(run.device_num);
  const auto env = [](const char* name) -> nlohmann::ordered_json {
    const char* v = std::getenv(name);
    return v ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json j;
  j["model_branch"] = env("model_branch");
  j["model_commit"] = env("model_commit");
  j["model_name"] = run.model_name;
  j["batch_size"] = run.batch_size;
  j["fp_item"] = run.fp_item;
  j["run_mode"] = run.run_mode;
  j["convergence_value"] = speed.losses.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(speed.losses.back());
  j["convergence_key"] = "loss:";
  j["ips"] = std::round(per_card * d.cards * 1000.0) / 1000.0;
  j["speed_unit"] = "samples/s";
  j["device_num"] = run.device_num;
  j["model_run_time"] = static_cast<long>(std::lround(run_seconds));
  j["frame_commit"] = "";
  j["frame_version"] = frame_version;
  return j.dump();
}

}  // namespace ocrforge
