// The command table (command_table.h).
#include "command_table.h"

#include <algorithm>

// The same table in both binaries, each running its own half: ocrforge-train
// (OCRFORGE_IN_TRAIN_BINARY) the LibTorch commands and checkpoint `infer`,
// ocrforge the rest.
#ifdef OCRFORGE_IN_TRAIN_BINARY
#define READING(f) nullptr
#define TORCH(f) f
#else
#define READING(f) f
#define TORCH(f) nullptr
#endif
#if defined(OCRFORGE_WITH_SERVE) && !defined(OCRFORGE_IN_TRAIN_BINARY)
#define SERVE(f) f
#else
#define SERVE(f) nullptr
#endif
#if defined(OCRFORGE_TRAIN_BINARY) && !defined(OCRFORGE_IN_TRAIN_BINARY)
#define LAUNCH(f) f
#else
#define LAUNCH(f) nullptr
#endif

namespace ocrforge {

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"ocr", "", "read text from images: detection -> direction classifier -> recognition", CommandPart::Reading, READING(cmd_ocr)},
      {"infer", "det|cls|rec", "run one model (PaddleOCR's predict_det / predict_cls / predict_rec)",
       CommandPart::Reading, cmd_infer},
      {"synth", "rec|det", "generate labelled synthetic text images (PaddleOCR label formats)", CommandPart::Reading, READING(cmd_synth)},
      {"eval-det", "--gt LABELS --pred RESULTS", "precision / recall / hmean of detections", CommandPart::Reading, READING(cmd_eval_det)},
      {"data", "crop|split|cls|select",
       "recognition crops from detection labels; train / eval split; classifier data; the least certain lines to "
       "correct",
       CommandPart::Reading, READING(cmd_data)},
      {"tipc", "prepare|plan|run CONFIG.txt MODE",
       "PaddleOCR's pipeline test: make its data, show / run its commands (docs/tipc.md)", CommandPart::Reading, READING(cmd_tipc)},
      {"serve", "", "OCR over HTTP: PaddleOCR's /ocr and ocr_system APIs, a web page, keys, metrics (docs/serve.md)",
       CommandPart::Serve, SERVE(cmd_serve)},
      {"train", "-c CFG", "train a rec / det / cls model (or fine-tune a shipped ONNX model) from a PaddleOCR-style YAML",
       CommandPart::Torch, TORCH(cmd_train)},
      {"eval", "-c CFG [--save_wrong FILE]", "evaluate a checkpoint (-o Global.checkpoints=DIR/best_accuracy)", CommandPart::Torch, TORCH(cmd_eval)},
      {"export", "-c CFG", "write an inference model (-o Global.pretrained_model=CKPT Global.save_inference_dir=OUT)",
       CommandPart::Torch, TORCH(cmd_export)},
      {"launch", "[--ips=..] [--nproc_per_node=N] train -c CFG", "distributed training (docs/distributed.md)",
       CommandPart::Launch, LAUNCH(cmd_launch)},
      {"check", "[-c CFG]", "verify the installation (build, devices, a training step, a 2-worker all-reduce), or with -c a training config without training",
       CommandPart::Torch, TORCH(cmd_check)},
  };
  return table;
}

const Command* find_command(const std::string& name) {
  for (const Command& c : command_table())
    if (name == c.name) return &c;
  return nullptr;
}

bool build_has(CommandPart part) {
  switch (part) {
    case CommandPart::Reading:
      return true;
    case CommandPart::Serve:
#ifdef OCRFORGE_WITH_SERVE
      return true;
#else
      return false;
#endif
    case CommandPart::Launch:
    case CommandPart::Torch:
#if defined(OCRFORGE_TRAIN_BINARY) || defined(OCRFORGE_IN_TRAIN_BINARY)
      return true;
#else
      return false;
#endif
  }
  return false;
}

std::string usage_text() {
  std::string s = "usage: ocrforge <command> [flags]\n\ncommands:\n";
  const auto line = [&](std::string head, const std::string& summary) {
    head.resize(std::max<size_t>(head.size() + 2, 15), ' ');
    s += "  " + head + summary + "\n";
  };
  for (const Command& c : command_table())
    if (build_has(c.part)) line(std::string(c.name) + (*c.args ? std::string(" ") + c.args : ""), c.summary);
  line("version", "print the version");
  s += "\n`ocrforge <command> --help` lists a command's flags.\n";
  return s;
}

}  // namespace ocrforge
