// `ocrforge train -c cfg.yml -o ...` and `ocrforge eval -c cfg.yml -o
// Global.checkpoints=...`: recognition training and evaluation on LibTorch.
// Exit codes: 0 done, 1 error or NaN loss, 130/143 stopped by SIGINT/SIGTERM
// (after saving `latest`).
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "ocrforge/core/config.h"
#include "ocrforge/train/loop/rec_trainer.h"
#include "ocrforge/train/loop/stop_signal.h"
#include "train_args.h"

namespace ocrforge {

static Config load_config(const TrainArgs& t) {
  Config c = Config::load_file(t.config);
  c.apply_overrides(t.overrides);
  return c;
}

int cmd_train(const Args& args) {
  const TrainArgs t = parse_train_args(args, "train");
  if (t.help) {
    std::cout << train_usage("train");
    return 0;
  }
  RecTrainer trainer(load_config(t));
  switch (trainer.train()) {
    case TrainOutcome::Completed: return 0;
    case TrainOutcome::Stopped: return 128 + stop_signal_number();
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
  Config c = load_config(t);
  if (c.get<std::string>("Global.checkpoints", "").empty() && c.get<std::string>("Global.pretrained_model", "").empty())
    throw UsageError("eval needs weights: -o Global.checkpoints=<save_model_dir>/best_accuracy");
  RecTrainer trainer(std::move(c), TrainerMode::Eval);
  const RecEvalResult r = trainer.evaluate();
  std::printf("metric eval ***************\nacc: %.6f\nnorm_edit_dis: %.6f\nsamples: %ld\nfps: %.2f\n", r.acc,
              r.norm_edit_dis, r.samples, r.seconds > 0 ? r.samples / r.seconds : 0.0);
  return 0;
}

}  // namespace ocrforge
