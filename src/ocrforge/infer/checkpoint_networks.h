// Reading a training checkpoint like an exported model (`infer det|rec
// --*_model_dir <save_model_dir or .ckpt>`): the predictors open every model
// through open_network, which hands checkpoints to the networks a binary
// linking the train layer registers (ocrforge-train does at start-up; the
// reading binary `ocrforge` links no LibTorch and execs ocrforge-train for
// such runs). A checkpoint then goes through the same resize, batching and
// decoding as its export, so the two read every image alike.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/network.h"
#include "ocrforge/infer/params.h"

namespace ocrforge {

struct CheckpointNetworks {
  // The network of the checkpoint at `path` (a .ckpt file, or a folder with
  // best_accuracy.ckpt / latest.ckpt) for `role` ("det", "rec", "cls"),
  // running on `threads` CPU threads. Error naming the file when it is not
  // that role's checkpoint.
  std::function<std::unique_ptr<Network>(const std::string& path, const std::string& role, int threads)> open;
  // A rec checkpoint's dictionary and input size (its config's), into `rec`
  // (the dictionary unless `dict_given`, the size unless `shape_given`).
  std::function<void(const std::string& path, RecParams& rec, bool dict_given, bool shape_given)> rec_params;
};

// Called once at start-up by a binary that links the train layer.
void register_checkpoint_networks(CheckpointNetworks networks);
bool checkpoint_networks_registered();

// The network `model_dir` names for `role`: a training checkpoint
// (core/checkpoint_path.h) through the registered networks (fp32 LibTorch:
// --precision int8 is refused for it), anything else as an ONNX model on
// ONNX Runtime (ort_model.h; `int8_calibration` as there). `flag` names the
// model's flag in messages.
std::unique_ptr<Network> open_network(const std::string& model_dir, const RuntimeParams& rt, const std::string& role,
                                      const std::string& flag, const CalibrationSource& int8_calibration = {});

// When rec.model_dir is a training checkpoint and networks are registered:
// its dictionary and input size into `rec` (as apply_rec_export_folder does
// for an export folder). Otherwise nothing.
void apply_rec_checkpoint(RecParams& rec, bool dict_given, bool shape_given);

}  // namespace ocrforge
