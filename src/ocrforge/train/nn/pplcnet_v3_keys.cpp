#include "ocrforge/train/nn/pplcnet_v3_keys.h"

#include <cmath>
#include <vector>

#include "ocrforge/train/nn/arch_yaml.h"

namespace ocrforge {

using namespace arch_yaml;

PPLCNetV3Keys read_pplcnet_v3_keys(const YAML::Node& n, const std::string& path, bool det_default) {
  PPLCNetV3Keys k;
  k.det = det_default;
  read(n, "scale", path, k.scale);
  read(n, "det", path, k.det);
  read(n, "conv_kxk_num", path, k.conv_kxk_num);
  // docs/training.md says how ocrforge's learning rates differ from these.
  std::vector<double> lr_mult_list(6, 1.0);
  read(n, "lr_mult_list", path, lr_mult_list);
  if (lr_mult_list != std::vector<double>(6, 1.0))
    throw UsageError(path + ".lr_mult_list: per-stage learning-rate multipliers are not supported yet; leave it "
                            "out (all 1.0)");
  double lab_lr = 0.1;
  read(n, "lab_lr", path, lab_lr);
  if (std::abs(lab_lr - 0.1) > 1e-12)
    throw UsageError(path + ".lab_lr: a learning rate for the LearnableAffineBlocks other than PaddleOCR's default "
                            "0.1 is not supported yet; leave it out");
  refuse_backbone_download(n, path);
  return k;
}

}  // namespace ocrforge
