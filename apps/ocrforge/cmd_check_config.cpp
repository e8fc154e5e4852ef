// `ocrforge check -c CONFIG [-o Key=value ...]`: validates a training config
// without training (train/loop/config_check.h) and prints what training
// would build: the task, the network's parameter count and parts, the
// dictionary's classes, then warnings (missing data, a URL or missing
// pretrained_model, no CUDA here) and the verdict line. Exit 0: training can
// start once the warnings' data is there; 2: the config is refused (unknown
// key, component not built, bad value); 1: another error (e.g. an unreadable
// dictionary). The reason is on the verdict line.
#include <iostream>

#include "commands.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/train/loop/config_check.h"
#include "train_args.h"

namespace ocrforge {

namespace {

// 1234567 -> "1,234,567"
std::string thousands(int64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

bool is_config_check(const Args& args) {
  for (const auto& a : args)
    if (a == "-c" || a == "--config" || starts_with(a, "--config=")) return true;
  return false;
}

int cmd_check_config(const Args& args) {
  const TrainArgs t = parse_train_args(args, "check");
  if (t.help) {
    std::cout << train_usage("check") << "  validates the config without training (exit 0: training can start once "
                                         "the data is there; 2: refused, with the reason)\n";
    return 0;
  }
  std::cout << "config: " << t.config << std::endl;
  ConfigCheckReport r;
  try {
    r = check_training_config(load_train_config(t));
  } catch (const Error& e) {
    std::cout << "ocrforge check: FAILED: " << e.what() << std::endl;
    return dynamic_cast<const UsageError*>(&e) ? 2 : 1;
  }
  std::cout << "task: " << r.task << "\n"
            << "network: " << thousands(r.parameters) << " parameters";
  std::string parts;
  for (const auto& [name, n] : r.parts) parts += (parts.empty() ? "" : ", ") + name + " " + thousands(n);
  if (!parts.empty() && r.parts.size() <= 8) std::cout << " (" << parts << ")";
  std::cout << "\n";
  if (!r.dictionary.empty())
    std::cout << "dictionary: " << r.dictionary << " (" << r.classes << " classes with the CTC blank)\n";
  else if (r.classes > 0)
    std::cout << "classes: " << r.classes << " (Global.label_list)\n";
  for (const auto& n : r.notes) std::cout << "note: " << n << "\n";
  for (const auto& w : r.warnings) std::cout << "WARNING: " << w << "\n";
  std::cout << "ocrforge check: PASSED: the config builds; training can start"
            << (r.warnings.empty() ? "" : " once the warnings above are dealt with") << std::endl;
  return 0;
}

}  // namespace ocrforge
