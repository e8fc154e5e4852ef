// `ocrforge train -c cfg.yml -o ...` and `ocrforge eval -c cfg.yml -o
// Global.checkpoints=...`: recognition and detection training and evaluation on LibTorch.
// Exit codes: 0 done, 1 error or NaN loss, 130/143 stopped by SIGINT/SIGTERM
// (after saving `latest`). Under `ocrforge launch` (WORLD_SIZE > 1) each
// worker process runs this with the c10d communicator (docs/distributed.md).
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/train/dist/c10d_communicator.h"
#include "ocrforge/train/loop/allocator_tuning.h"
#include "ocrforge/train/loop/trainer.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "ocrforge/train/onnx/onnx_arch.h"
#include "train_args.h"

namespace ocrforge {

namespace {

// `eval --save_wrong FILE` is checked before the evaluation runs, so a typo
// in the folder does not cost a whole evaluation.
void check_save_wrong_path(const TrainArgs& t) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(t.save_wrong).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw UsageError("--save_wrong: folder '" + parent.string() + "' does not exist; create it or name another file");
  refuse_overwriting_input(t.save_wrong, "--save_wrong", t.config, "the config file");
}

}  // namespace

int cmd_train(const Args& args) {
  const TrainArgs t = parse_train_args(args, "train");
  if (t.help) {
    std::cout << train_usage("train");
    return 0;
  }
  Config config = load_train_config(t);
  tune_allocator_for_training();  // fewer page faults per step (allocator_tuning.h)
  // `ocrforge launch` splits the cores between its workers; the config wins.
  const char* threads = std::getenv("OCRFORGE_NUM_THREADS");
  if (threads && config.get<int>("Global.num_threads", 0) <= 0) config.set("Global.num_threads", std::atoi(threads));
  // WORLD_SIZE > 1 (set by `ocrforge launch`): rendezvous with the other
  // workers here, before any data is read.
  std::unique_ptr<Communicator> comm = make_communicator_from_environment(config);
  if (comm->world_size() > 1) {
    config.set("Global.distributed", true);  // derived from the world size, as PaddleOCR does
    // Rank 0 logs the training; the others say who they are (in their workerlog).
    std::cerr << "ocrforge train: rank " << comm->rank() << " of " << comm->world_size() << " joined"
              << (comm->is_main() ? "" : "; rank 0 writes the training log") << std::endl;
  }
  Trainer trainer(std::move(config), TrainerMode::Train, std::move(comm));
  switch (trainer.train()) {
    case TrainOutcome::Completed: return 0;
    // A rank may stop because another rank got the signal: report SIGTERM then.
    case TrainOutcome::Stopped: return 128 + (stop_signal_number() ? stop_signal_number() : SIGTERM);
    case TrainOutcome::NanLoss: return 1;
  }
  return 1;
}

int cmd_eval(const Args& args) {
  const TrainArgs t = parse_train_args(args, "eval");
  if (t.help) {
    std::cout << train_usage("eval");
    return 0;
  }
  Config c = load_train_config(t);
  tune_allocator_for_training();  // evaluation allocates like training: 5x faster (allocator_tuning.h)
  // A model fine-tuned from ONNX starts from the file's own weights: evaluating
  // it without a checkpoint scores the shipped model (the "before" figure).
  const bool onnx = is_onnx_architecture(c.root()["Architecture"]);
  if (!onnx && c.get<std::string>("Global.checkpoints", "").empty() &&
      c.get<std::string>("Global.pretrained_model", "").empty())
    throw UsageError("eval needs weights: -o Global.checkpoints=<save_model_dir>/best_accuracy");
  if (!t.save_wrong.empty()) check_save_wrong_path(t);
  Trainer trainer(std::move(c), TrainerMode::Eval);
  // The wrong samples in evaluation order, one line each, written once the
  // evaluation is done (atomically: a stopped run leaves no half file).
  std::string wrong = "image\tlabel\tprediction\tscore\n";
  long wrong_count = 0;
  if (!t.save_wrong.empty())
    trainer.task().report_eval_samples([&](const EvalSample& s) {
      if (s.correct) return;
      ++wrong_count;
      char score[32];
      std::snprintf(score, sizeof(score), "%.4f", s.score);
      wrong += s.path + "\t" + s.label + "\t" + s.prediction + "\t" + score + "\n";
    });
  const EvalMetrics r = trainer.evaluate();
  std::printf("metric eval ***************\n");
  for (const auto& [name, value] : r.values) std::printf("%s: %.6f\n", name.c_str(), value);
  std::printf("samples: %ld\nfps: %.2f\n", r.samples, r.seconds > 0 ? r.samples / r.seconds : 0.0);
  if (!t.save_wrong.empty()) {
    write_file_atomic(t.save_wrong, wrong);
    std::printf("wrong samples: %ld written to %s\n", wrong_count, t.save_wrong.c_str());
  }
  return 0;
}

}  // namespace ocrforge
