#include "ocrforge/train/tasks/rec/rec_input_size.h"

#include <string>
#include <vector>

#include "ocrforge/core/config.h"
#include "ocrforge/core/yaml_child.h"

namespace ocrforge {

std::pair<int, int> rec_input_size(const YAML::Node& root) {
  for (const char* section : {"Eval", "Train"}) {
    const YAML::Node list = yaml_child(yaml_child(yaml_child(root, section), "dataset"), "transforms");
    if (!list.IsSequence()) continue;
    for (const auto& item : list) {
      const YAML::Node shape = yaml_child(yaml_child(item, "RecResizeImg"), "image_shape");
      if (!shape || shape.IsNull()) continue;  // YAML::Node() from yaml_child() is a (defined) null
      const auto s = config_detail::convert<std::vector<int>>(
          shape, std::string(section) + ".dataset.transforms.RecResizeImg.image_shape");
      if (s.size() == 3) return {s[1], s[2]};
    }
  }
  return {48, 320};
}

}  // namespace ocrforge
