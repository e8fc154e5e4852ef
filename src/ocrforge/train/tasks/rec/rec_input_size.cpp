#include "ocrforge/train/tasks/rec/rec_input_size.h"

#include <string>
#include <vector>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/yaml_child.h"
#include "ocrforge/train/tasks/rec/rec_arch_spec.h"

namespace ocrforge {

std::pair<int, int> rec_input_size(const YAML::Node& root) {
  for (const char* section : {"Eval", "Train"}) {
    const YAML::Node list = yaml_child(yaml_child(yaml_child(root, section), "dataset"), "transforms");
    if (!list.IsSequence()) continue;
    for (const auto& item : list) {
      for (const char* resize : {"RecResizeImg", "SVTRRecResizeImg"}) {
        const YAML::Node shape = yaml_child(yaml_child(item, resize), "image_shape");
        if (!shape || shape.IsNull()) continue;  // YAML::Node() from yaml_child() is a (defined) null
        const auto s = config_detail::convert<std::vector<int>>(
            shape, std::string(section) + ".dataset.transforms." + resize + ".image_shape");
        if (s.size() == 3) return {s[1], s[2]};
      }
    }
  }
  return {48, 320};
}

void check_fixed_input_size(const BackboneSpec& backbone, const YAML::Node& root, const std::string& backbone_path) {
  if (backbone.name != "SVTRNet") return;
  const std::vector<int>& size = backbone.svtr.img_size;
  const std::string want = "[" + std::to_string(size.at(0)) + ", " + std::to_string(size.at(1)) + "]";
  for (const char* section : {"Train", "Eval"}) {
    const YAML::Node sampler = yaml_child(yaml_child(root, section), "sampler");
    if (sampler && !sampler.IsNull())
      throw UsageError(std::string(section) + ".sampler: batches of several sizes, but " + backbone_path +
                       " (SVTRNet) takes one, img_size " + want + "; use SimpleDataSet with RecResizeImg "
                       "image_shape [3, " + std::to_string(size[0]) + ", " + std::to_string(size[1]) + "]");
    const YAML::Node list = yaml_child(yaml_child(yaml_child(root, section), "dataset"), "transforms");
    if (!list.IsSequence()) continue;
    for (const auto& item : list)
      for (const char* resize : {"RecResizeImg", "SVTRRecResizeImg"}) {
        const YAML::Node shape = yaml_child(yaml_child(item, resize), "image_shape");
        if (!shape || shape.IsNull()) continue;
        const std::string key = std::string(section) + ".dataset.transforms." + resize + ".image_shape";
        const auto s = config_detail::convert<std::vector<int>>(shape, key);
        if (s.size() == 3 && (s[1] != size[0] || s[2] != size[1]))
          throw UsageError(key + ": [" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " +
                           std::to_string(s[2]) + "], but " + backbone_path + ".img_size is " + want +
                           ": SVTRNet takes that one size; make them agree");
      }
  }
}

}  // namespace ocrforge
