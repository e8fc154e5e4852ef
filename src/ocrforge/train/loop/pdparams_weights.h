// PaddleOCR's .pdparams weights and a LibTorch network: the native networks
// use PaddleOCR's structured names (backbone.conv1._conv.weight), so weights
// map by name with three layout rules (docs/pdparams.md#in-training):
// BatchNorm's running_mean / running_var are Paddle's _mean / _variance (and
// num_batches_tracked has no Paddle counterpart); a Linear weight is stored
// [in, out] by Paddle and [out, in] by LibTorch (transposed); an LSTM's
// weight_ih_l<k>[_reverse] is Paddle's <k>.cell_fw / cell_bw / cell.weight_ih.
// A module that names its parts otherwise than PaddleOCR says so
// (nn/paddle_names.h): a MultiHead recognizer's neck.* is Paddle's
// head.ctc_encoder.*, at any depth (Student.neck.* in a distillation).
#pragma once
#include <torch/torch.h>

#include <map>
#include <string>

namespace ocrforge {

// The .pdparams file a checkpoint flag names: `prefix` itself when it ends in
// ".pdparams", or "<prefix>.pdparams" when that exists and "<prefix>.ckpt"
// does not (PaddleOCR's flags name the prefix, `output/rec/best_accuracy`).
// "" when the flag names an ocrforge checkpoint.
std::string pdparams_file(const std::string& prefix);

// The file's tensors keyed by `model`'s parameter and buffer names, in
// LibTorch's layouts. Names of the file that match nothing in the model stay
// under their Paddle names (so a loader reports them as unexpected); the
// model's num_batches_tracked counters map to their current values. With a
// `key_prefix` ("Student.") and names in the file that start with it, only
// those are used, the prefix removed (a distillation member).
std::map<std::string, torch::Tensor> pdparams_as_model_state(const std::string& file,
                                                              torch::nn::Module& model,
                                                              const std::string& key_prefix = "");

// Writes `model`'s parameters and buffers as a .pdparams file that PaddleOCR
// loads (Paddle's names and layouts, float32 as trained), atomically.
void save_pdparams(const std::string& path, torch::nn::Module& model, int protocol = 4);

}  // namespace ocrforge
