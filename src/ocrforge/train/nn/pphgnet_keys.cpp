#include "ocrforge/train/nn/pphgnet_keys.h"

#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

namespace {
// The keys both constructors take: det, out_indices, use_ssld (which ImageNet
// weights `pretrained` would download), pretrained.
PPHGNetKeys read_common(const YAML::Node& n, const std::string& path, bool det_default) {
  PPHGNetKeys k;
  k.det = det_default;
  read(n, "det", path, k.det);
  read(n, "out_indices", path, k.out_indices);
  bool use_ssld = false;
  read(n, "use_ssld", path, use_ssld);
  refuse_backbone_download(n, path);
  return k;
}
}  // namespace

PPHGNetKeys read_pphgnet_small_keys(const YAML::Node& n, const std::string& path, bool det_default) {
  return read_common(n, path, det_default);
}

PPHGNetKeys read_pphgnet_v2_b4_keys(const YAML::Node& n, const std::string& path, bool det_default) {
  PPHGNetKeys k = read_common(n, path, det_default);
  read(n, "text_rec", path, k.text_rec);
  if (n["use_lab"])
    throw UsageError(path + ".use_lab: PaddleOCR's PPHGNetV2_B4 sets use_lab itself (False) and refuses it as a "
                            "config key; leave it out");
  std::vector<double> lr_mult_list;
  read(n, "lr_mult_list", path, lr_mult_list);
  for (double m : lr_mult_list)
    if (m != 1.0)
      throw UsageError(path + ".lr_mult_list: per-stage learning-rate multipliers other than 1.0 are not supported "
                              "yet; leave the key out");
  double dropout_prob = 0.0;
  read(n, "dropout_prob", path, dropout_prob);  // the ImageNet tail's dropout, never run for OCR
  read(n, "use_last_conv", path, k.use_last_conv);
  read(n, "class_expand", path, k.class_expand);
  read(n, "class_num", path, k.class_num);
  return k;
}

}  // namespace ocrforge
