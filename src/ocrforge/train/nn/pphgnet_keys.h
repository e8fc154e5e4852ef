// The Architecture.Backbone keys of PPHGNet_small and PPHGNetV2_B4 that the
// det and rec configs share (PaddleOCR's constructor arguments,
// rec_hgnet.py / rec_pphgnetv2.py), read in one place so the two tasks accept
// and refuse them alike. Which variant a task needs (det, text_rec) is the
// task's own check. Free of torch includes.
#pragma once
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace ocrforge {

struct PPHGNetKeys {
  bool det = false;       // the detection variant: four stage outputs at strides 4..32
  bool text_rec = false;  // PPHGNetV2_B4 only: the recognizer's stride-1 stem3
  std::vector<int> out_indices{0, 1, 2, 3};  // det: the stage outputs returned
  // PPHGNetV2_B4 only: the ImageNet tail PaddleOCR builds and never runs (nn/pphgnet_v2.h).
  bool use_last_conv = true;
  int class_expand = 2048;
  int class_num = 1000;
};

// PPHGNet_small(pretrained, use_ssld, det, **PPHGNet's in_channels /
// out_indices): reads det (absent: `det_default`, the task's own variant),
// out_indices, use_ssld; `pretrained` (PaddleOCR downloads ImageNet weights)
// passes only when false. in_channels is left to the task, which reads it
// for every backbone.
PPHGNetKeys read_pphgnet_small_keys(const YAML::Node& n, const std::string& path, bool det_default);

// PPHGNetV2_B4(pretrained, use_ssld, det, text_rec, **PPHGNetV2's keys):
// also use_last_conv, class_expand, class_num, dropout_prob (the unused
// tail's); lr_mult_list only at 1.0; use_lab refused (PPHGNetV2_B4 sets it
// itself, so PaddleOCR refuses it as a duplicate keyword). UsageError naming
// the key otherwise.
PPHGNetKeys read_pphgnet_v2_b4_keys(const YAML::Node& n, const std::string& path, bool det_default);

}  // namespace ocrforge
