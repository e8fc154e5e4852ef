// Checkpoints: one file per save holding model weights, optimizer state,
// training progress and the resolved config, written atomically (temp file +
// rename) so a crash or SIGKILL mid-save never leaves a broken `latest`.
//
// File layout (<prefix>.ckpt): "OCRFCKPT1\n", then three blocks, each an
// 8-byte little-endian length followed by the bytes: the JSON header
// (progress, config), the model (torch pickle of a name -> tensor dict), the
// optimizer (torch archive); then a fourth block, "fnv1a64 <hex>", the hash of
// every byte before it. Loading checks it: any damage (a flipped byte, a cut
// tail, a broken header) is one Error naming the file ("damaged checkpoint
// ...; use another"). Files without the fourth block (older ocrforge) load
// with a warning. Saving removes ".<name>.tmp.*" files a killed save left.
#pragma once
#include <torch/torch.h>

#include <map>
#include <string>

namespace ocrforge {

struct TrainProgress {
  int epoch = 0;            // last finished epoch (1-based; 0 = none)
  long global_step = 0;     // optimizer steps done
  double best_metric = -1;  // best main metric so far (-1 = none)
  int best_epoch = 0;
  std::string main_indicator = "acc";
};

struct CheckpointData {
  TrainProgress progress;
  std::string config_yaml;  // the resolved config the run used
  std::string architecture; // a fingerprint of the model structure, for clear mismatch errors
};

// "out/latest" or "out/latest.ckpt" -> "out/latest.ckpt".
std::string checkpoint_path(const std::string& prefix);

// The weights file a Global.checkpoints / pretrained_model prefix names for
// reading: a PaddleOCR inference .onnx file (itself), a .pdparams file
// (loop/pdparams_weights.h) or checkpoint_path's.
std::string weights_path(const std::string& prefix);

// Whether `path` names a PaddleOCR inference model exported to ONNX (ends in
// ".onnx"), which the rec and det tasks read as Global.pretrained_model.
bool is_inference_onnx_file(const std::string& path);

// The checkpoint file `path` names: itself (".ckpt" added when missing), or
// in a folder best_accuracy.ckpt, else latest.ckpt (Error when neither).
std::string resolve_checkpoint(const std::string& path);

void save_checkpoint(const std::string& prefix, torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                     const CheckpointData& data);

// Loads weights (and the optimizer state when `optimizer` is given). Every
// missing key, unexpected key and shape mismatch is collected into one Error
// naming the file ("checkpoint from a different architecture?"). A .pdparams
// file (PaddleOCR's weights) loads its weights the same way; the optimizer and
// the progress start fresh (PaddleOCR's .pdopt / .states are not read).
CheckpointData load_checkpoint(const std::string& prefix, torch::nn::Module& model, torch::optim::Optimizer* optimizer);

// The resolved config stored in a checkpoint (without loading weights).
std::string read_checkpoint_config(const std::string& prefix);

struct PretrainedReport {
  std::vector<std::string> loaded, missing, unexpected, shape_mismatch;
  std::vector<std::string> warnings;  // what the task says about the result (logged as warnings)
};
// Global.pretrained_model: weights only; loads what fits, reports the rest
// (an ocrforge checkpoint or a .pdparams file, as PaddleOCR's
// load_pretrained_params loads what fits and warns about the rest).
PretrainedReport load_pretrained(const std::string& prefix, torch::nn::Module& model);

// Name -> tensor of parameters and buffers (checkpoint keys).
std::map<std::string, torch::Tensor> model_state(torch::nn::Module& model);

}  // namespace ocrforge
