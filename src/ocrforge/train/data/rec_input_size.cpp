#include "ocrforge/train/data/rec_input_size.h"

#include <string>
#include <vector>

#include "ocrforge/core/config.h"

namespace ocrforge {

namespace {

// n[key], or a null node when n is not a map (a const lookup of an absent key
// gives a node that throws when indexed again).
YAML::Node child(const YAML::Node& n, const char* key) { return n && n.IsMap() ? n[key] : YAML::Node(); }

}  // namespace

std::pair<int, int> rec_input_size(const YAML::Node& root) {
  for (const char* section : {"Eval", "Train"}) {
    const YAML::Node list = child(child(child(root, section), "dataset"), "transforms");
    if (!list.IsSequence()) continue;
    for (const auto& item : list) {
      const YAML::Node shape = child(child(item, "RecResizeImg"), "image_shape");
      if (!shape || shape.IsNull()) continue;  // YAML::Node() from child() is a (defined) null
      const auto s = config_detail::convert<std::vector<int>>(
          shape, std::string(section) + ".dataset.transforms.RecResizeImg.image_shape");
      if (s.size() == 3) return {s[1], s[2]};
    }
  }
  return {48, 320};
}

}  // namespace ocrforge
