// Whether a model flag names a training checkpoint rather than an ONNX
// model: the `ocrforge` binary (no LibTorch) asks this to hand such runs to
// ocrforge-train, which loads checkpoints.
#pragma once
#include <string>

namespace ocrforge {

// True when `path` is a checkpoint file (.ckpt) or a folder holding
// best_accuracy.ckpt or latest.ckpt and no inference.onnx (an export
// written into the training folder wins).
bool is_checkpoint_path(const std::string& path);

}  // namespace ocrforge
