// Safe lookups into a parsed YAML document whose sections may be missing.
#pragma once
#include <yaml-cpp/yaml.h>

namespace ocrforge {

// n[key], or a null node when n is not a map. A const lookup of an absent
// key gives an invalid node that throws when indexed again, so chains such
// as yaml_child(yaml_child(root, "Eval"), "dataset") need this. Note that the
// null node converts to true: test IsNull() / IsSequence(), not `!node`.
inline YAML::Node yaml_child(const YAML::Node& n, const char* key) {
  return n && n.IsMap() ? n[key] : YAML::Node();
}

}  // namespace ocrforge
