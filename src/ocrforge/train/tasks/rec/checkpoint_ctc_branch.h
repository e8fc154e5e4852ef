// Loading a recognizer checkpoint for what reads only the CTC branch
// (export, inference from a checkpoint): the training-only branch of a
// MultiHead (PP-OCRv3's SARHead, PP-OCRv4 / v5's NRTR branch) may be absent
// on either side. A checkpoint of a CTC-only fine-tune has none; a model
// built without the branch (a config that lists no NRTRLoss) may read a
// checkpoint that holds it.
#pragma once
#include <string>

#include <torch/torch.h>

namespace ocrforge {

// Every tensor of `model` must be in the checkpoint with its shape, and the
// checkpoint must hold nothing else, except tensors under a "sar_head.",
// "before_gtc." or "gtc_head." module (at the top or below a member:
// <member>.sar_head.*), which may be missing or unexpected.
// Error naming the file and the keys otherwise (nothing is guaranteed about
// `model`'s weights after an Error).
void load_checkpoint_ctc_branch(const std::string& prefix, torch::nn::Module& model);

}  // namespace ocrforge
