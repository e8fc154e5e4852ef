// ocrforge: one binary, one file per subcommand. main() only dispatches and
// maps errors to exit codes: 0 success, 1 failure (some input failed or a
// fatal error), 2 bad usage.
#include <iostream>
#include <map>

#include <opencv2/core/utility.hpp>

#include "commands.h"
#include "ocrforge/core/error.h"
#include "ocrforge/version.h"

namespace {

const char* kUsage =
    "usage: ocrforge <command> [flags]\n\n"
    "commands:\n"
    "  ocr            read text from images: detection -> direction classifier -> recognition\n"
    "  infer det|cls|rec   run one model (PaddleOCR's predict_det / predict_cls / predict_rec)\n"
    "  version        print the version\n\n"
    "planned (not yet supported): train, eval, export, launch, tipc, synth, serve, check\n"
    "`ocrforge <command> --help` lists a command's flags.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace ocrforge;
  cv::setNumThreads(1);  // OpenCV ops are small here; ORT owns the cores
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cmd = argv[1];
  const Args args(argv + 2, argv + argc);
  const std::map<std::string, int (*)(const Args&)> commands = {{"ocr", cmd_ocr}, {"infer", cmd_infer}};
  try {
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "version" || cmd == "--version") {
      std::cout << "ocrforge " << OCRFORGE_VERSION << "\n";
      return 0;
    }
    auto it = commands.find(cmd);
    if (it != commands.end()) return it->second(args);
    for (const char* planned : {"train", "eval", "export", "launch", "tipc", "synth", "serve", "check"}) {
      if (cmd == planned) {
        std::cerr << "ocrforge: '" << cmd << "' is not yet supported in this version (" << OCRFORGE_VERSION
                  << "); see README.md for what is available\n";
        return 2;
      }
    }
    std::cerr << "ocrforge: unknown command '" << cmd << "'\n\n" << kUsage;
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "ocrforge " << cmd << ": " << e.what() << "\n";
    return 2;
  } catch (const Error& e) {
    std::cerr << "ocrforge " << cmd << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ocrforge " << cmd << ": internal error: " << e.what() << "\n";
    return 1;
  }
}
