// The Architecture.Backbone keys of PPLCNetV3 that the det and rec
// configs share (PaddleOCR's constructor arguments), read in one place so the
// two tasks accept and refuse them alike. Free of torch includes.
#pragma once
#include <string>

namespace YAML {
class Node;
}

namespace ocrforge {

struct PPLCNetV3Keys {
  double scale = 1.0;    // PaddleOCR's default for PPLCNetV3
  bool det = false;      // the detection variant (NET_CONFIG_det + layer_list)
  int conv_kxk_num = 4;  // kxk branches per LearnableRepLayer
};

// Reads scale, det, conv_kxk_num of the Backbone mapping `n` (key path
// `path`); an absent `det` is `det_default` (the task's own variant).
// PaddleOCR's per-stage learning rates (lr_mult_list, lab_lr) are
// accepted at their defaults only, and `pretrained` (PaddleOCR downloads
// ImageNet weights) only when false: UsageError naming the key otherwise.
PPLCNetV3Keys read_pplcnet_v3_keys(const YAML::Node& n, const std::string& path, bool det_default);

}  // namespace ocrforge
