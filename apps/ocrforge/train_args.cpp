#include "train_args.h"

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

std::string train_usage(const std::string& command) {
  return "usage: ocrforge " + command +
         " -c CONFIG.yml [-o Section.key=value ...]" + (command == "eval" ? " [--save_wrong FILE]" : "") +
         (command == "export" ? " [--overwrite]" : "") + "\n"
         "  -c, --config   PaddleOCR-style YAML config (see configs/rec/ and docs/config.md)\n"
         "  -o, --opt      overrides, e.g. -o Global.epoch_num=3 Global.use_gpu=False\n" +
         (command == "eval" ? "  --save_wrong FILE  write every wrong sample (image, label, prediction, score; tab-separated)\n"
                            : "") +
         (command == "export" ? "  --overwrite    replace a model already in Global.save_inference_dir (refused without it)\n"
                              : "");
}

Config load_train_config(const TrainArgs& t) {
  Config c = Config::load_file(t.config);
  c.apply_overrides(t.overrides);
  return c;
}

TrainArgs parse_train_args(const Args& args, const std::string& command) {
  TrainArgs t;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      t.help = true;
    } else if (a == "-c" || a == "--config") {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a config file");
      t.config = args[++i];
    } else if (starts_with(a, "--config=")) {
      t.config = a.substr(9);
    } else if (command == "eval" && (a == "--save_wrong" || starts_with(a, "--save_wrong="))) {
      if (a == "--save_wrong" && i + 1 >= args.size()) throw UsageError("--save_wrong needs a file name");
      t.save_wrong = a == "--save_wrong" ? args[++i] : a.substr(13);
      if (t.save_wrong.empty()) throw UsageError("--save_wrong needs a file name");
    } else if (command == "export" && a == "--overwrite") {
      t.overwrite = true;
    } else if (a == "-o" || a == "--opt") {
      while (i + 1 < args.size() && !starts_with(args[i + 1], "-")) t.overrides.push_back(args[++i]);
    } else {
      throw UsageError("unexpected argument '" + a + "' for '" + command + "'\n" + train_usage(command));
    }
  }
  if (!t.help && t.config.empty()) throw UsageError("-c CONFIG.yml is required\n" + train_usage(command));
  return t;
}

}  // namespace ocrforge
