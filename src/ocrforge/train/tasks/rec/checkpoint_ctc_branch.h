// Loading a recognizer checkpoint for what reads only the CTC branch
// (export, inference from a checkpoint): the training-only SARHead of a
// PP-OCRv3 MultiHead may be absent on either side. Checkpoints trained
// before ocrforge built the SAR branch have no sar_head.* tensors; an
// inference model is built without it while the checkpoint holds it.
#pragma once
#include <string>

#include <torch/torch.h>

namespace ocrforge {

// Every tensor of `model` must be in the checkpoint with its shape, and the
// checkpoint must hold nothing else, except tensors under a "sar_head." module
// (sar_head.* or <member>.sar_head.*), which may be missing or unexpected.
// Error naming the file and the keys otherwise (nothing is guaranteed about
// `model`'s weights after an Error).
void load_checkpoint_ctc_branch(const std::string& prefix, torch::nn::Module& model);

}  // namespace ocrforge
