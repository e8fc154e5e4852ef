// PaddleOCR's training log: the periodic line
//   epoch: [e/N], global_step: g, lr: ..., acc: ..., loss: ..., avg_reader_cost:
//   0.12345 s, avg_batch_cost: 0.23456 s, avg_samples: 16.0, ips: 68.2 samples/s, eta: 0:12:34
// to stdout and <save_model_dir>/train.log, with PaddleOCR's
// "[YYYY/MM/DD HH:MM:SS] ocrforge INFO: " prefix. Only rank 0 writes.
#pragma once
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ocrforge {

class TrainLog {
 public:
  // `path` "" = stdout only; `enabled` false = silent (ranks other than 0).
  TrainLog(const std::string& path, bool enabled);
  void info(const std::string& message);
  void warning(const std::string& message);
  bool enabled() const { return enabled_; }

 private:
  void write(const std::string& level, const std::string& message);
  bool enabled_;
  std::ofstream file_;
};

struct StepLogFields {
  int epoch = 0, epochs = 0;
  long global_step = 0;
  double lr = 0;
  std::vector<std::pair<std::string, double>> metrics;  // acc, norm_edit_dis, loss (in order)
  double reader_cost_s = 0, batch_cost_s = 0, samples = 0;
  double eta_s = 0;
};

// The log line without the prefix.
std::string format_step_line(const StepLogFields& f);
// "0:12:34", "1 day, 2:03:04" (Python's timedelta).
std::string format_eta(double seconds);

// The warnings for pretrained weights the file did not have: one line per
// tensor, except that a module with more than three of them missing (a head
// the file never had, such as a guidance branch) gets one line naming the
// module and the count. Modules are the first component of the name.
std::vector<std::string> missing_weight_lines(const std::vector<std::string>& missing);

}  // namespace ocrforge
