// `ocrforge tipc prepare CONFIG.txt MODE`: makes what a TIPC config's mode
// needs before `tipc run`, the job PaddleOCR's test_tipc/prepare.sh does by
// downloading. Offline: everything comes from `ocrforge synth` or from a
// folder of real labelled data when there is one.
//
//   training / eval label files of the training config (Train / Eval
//     `label_file_list` under `data_dir`), in PaddleOCR's layout;
//   inference image folders (`train_infer_img_dir`, the `--image_dir` slot);
//   what cannot be made offline (a Paddle pretrained backbone, the model
//     folders `whole_infer` reads) is listed as missing, with what to do.
//
// Idempotent: a label file or a non-empty folder that is there is kept as
// it is ("present"), so a user's own data always wins.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/tipc/tipc_config.h"

namespace ocrforge {

struct TipcPrepareParams {
  std::string mode;  // lite_train_lite_infer | ... | benchmark_train
  // A folder laid out as the team's shared data (ic15_rec_train/rec_gt_train.txt,
  // det_toy/det_gt.txt); "" or a folder that is not there: synthetic data only.
  std::string real_data;
  // Samples per training / eval label file; 0: the mode's default
  // (lite: rec 64 / 16, det 4 / 2; whole and benchmark_train: rec 1000 / 200, det 64 / 16).
  int num_train = 0, num_test = 0;
  int seed = 1;
};

struct TipcPrepareItem {
  std::string status;  // "made" | "present" | "missing"
  std::string path;
  std::string detail;  // what it holds, where it came from, or what to do
};

struct TipcPrepareReport {
  std::vector<TipcPrepareItem> items;
  int missing() const;
};

// Error naming the file for a config without a training config (`-c`) or
// with one that cannot be read; UsageError for an unknown mode.
TipcPrepareReport prepare_tipc(const TipcConfig& config, const TipcPrepareParams& options);

}  // namespace ocrforge
