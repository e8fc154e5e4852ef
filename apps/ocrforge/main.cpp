// ocrforge: one binary, one file per subcommand. main() only dispatches and
// maps errors to exit codes: 0 success, 1 failure (some input failed or a
// fatal error), 2 bad usage.
#include <iostream>
#include <map>
#include <string>

#include <opencv2/core/utility.hpp>

#include "commands.h"
#include "run_command.h"
#include "ocrforge/version.h"

namespace {

const char* kUsage =
    "usage: ocrforge <command> [flags]\n\n"
    "commands:\n"
    "  ocr            read text from images: detection -> direction classifier -> recognition\n"
    "  infer det|cls|rec   run one model (PaddleOCR's predict_det / predict_cls / predict_rec)\n"
    "  synth rec|det  generate labelled synthetic text images (PaddleOCR label formats)\n"
    "  eval-det --gt LABELS --pred RESULTS   precision / recall / hmean of detections\n"
    "  data crop|split|cls  recognition crops from detection labels; train / eval split; classifier data\n"
    "  tipc prepare|plan|run CONFIG.txt MODE   PaddleOCR's pipeline test: make its data, show / run its commands (docs/tipc.md)\n"
#ifdef OCRFORGE_WITH_SERVE
    "  serve          OCR over HTTP: PaddleOCR's /ocr and ocr_system APIs, a web page, keys, metrics (docs/serve.md)\n"
#endif
#ifdef OCRFORGE_TRAIN_BINARY
    "  train -c CFG   train a rec / det model (or fine-tune a shipped ONNX model) from a PaddleOCR-style YAML config\n"
    "  eval -c CFG    evaluate a checkpoint (-o Global.checkpoints=DIR/best_accuracy)\n"
    "  export -c CFG  write an inference model (-o Global.pretrained_model=CKPT Global.save_inference_dir=OUT)\n"
    "  launch [--ips=..] [--nproc_per_node=N] train -c CFG   distributed training (docs/distributed.md)\n"
    "  check          verify the installation: build, devices, a training step, a 2-worker all-reduce\n"
#endif
    "  version        print the version\n\n"
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
  std::map<std::string, int (*)(const Args&)> commands = {{"ocr", cmd_ocr}, {"infer", cmd_infer}, {"synth", cmd_synth}, {"eval-det", cmd_eval_det}, {"data", cmd_data}, {"tipc", cmd_tipc}};
#ifdef OCRFORGE_WITH_SERVE
  commands["serve"] = cmd_serve;
#endif
#ifdef OCRFORGE_TRAIN_BINARY
  for (const char* torch_command : {"train", "eval", "export", "check"})
    if (cmd == torch_command) return exec_train_binary(cmd, args);
  commands["launch"] = cmd_launch;
#endif
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "version" || cmd == "--version") {
    std::cout << "ocrforge " << OCRFORGE_VERSION << "\n";
    return 0;
  }
  auto it = commands.find(cmd);
  if (it != commands.end()) return run_command(cmd, it->second, args);
  for (const char* planned : {"train", "eval", "export", "launch", "serve", "check"}) {
    // train/eval/launch/check land here only in a build without LibTorch (OCRFORGE_WITH_TRAIN=OFF),
    // which has no ocrforge-train; serve only in one without cpp-httplib (OCRFORGE_WITH_SERVE=OFF).
    if (cmd == planned) {
      std::cerr << "ocrforge: '" << cmd << "' is not yet supported in this version (" << OCRFORGE_VERSION
                << "); see README.md for what is available\n";
      return 2;
    }
  }
  std::cerr << "ocrforge: unknown command '" << cmd << "'\n\n" << kUsage;
  return 2;
}
