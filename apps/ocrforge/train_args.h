// PaddleOCR's tools/train.py / eval.py command line:
//   -c configs/rec/x.yml -o Global.epoch_num=3 Train.loader.batch_size_per_card=64
// (-o takes every following token up to the next flag; several -o allowed).
#pragma once
#include <string>
#include <vector>

#include "commands.h"
#include "ocrforge/core/config.h"

namespace ocrforge {

struct TrainArgs {
  std::string config;
  std::vector<std::string> overrides;
  std::string save_wrong;  // eval only: file listing every wrong sample
  bool overwrite = false;  // export only: replace an inference model already there
  bool help = false;
};

TrainArgs parse_train_args(const Args& args, const std::string& command);
std::string train_usage(const std::string& command);
// The config file with the -o overrides applied, checked against the
// training schema (det rows included).
Config load_train_config(const TrainArgs& t);

}  // namespace ocrforge
