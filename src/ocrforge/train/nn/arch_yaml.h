// Readers shared by the Architecture / Loss parsers of every task
// (rec_arch_spec.cpp, det_arch_spec.cpp): one unknown-key check and one typed
// read, so a typo or a wrong value is reported the same way for recognition
// and detection ("Architecture.Backbone.sclae: unknown key (did you mean
// 'scale'?)"). Internal to train/models.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge::arch_yaml {

inline std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

inline bool present(const YAML::Node& n, const std::string& key) { return n[key] && !n[key].IsNull(); }

// Every key of `node` must be in `known`; the error suggests the closest one.
inline void check_keys(const YAML::Node& node, const std::string& path, const std::vector<std::string>& known) {
  if (!node.IsMap()) throw UsageError(path + ": expected a mapping of keys");
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const auto hint = closest_match(key, known);
    throw UsageError(path + "." + key + ": unknown key" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                     "; known: " + join(known));
  }
}

// The config layer's one typed reader (config.h): a wrong value names its full
// key here exactly as everywhere else. Absent or null keys keep `out`. Lists
// accept a single value, as PaddleOCR does for strides and kernel sizes.
template <typename T>
void read(const YAML::Node& m, const std::string& key, const std::string& path, T& out) {
  if (present(m, key)) out = config_detail::convert<T>(m[key], path + "." + key);
}

// PaddleOCR builds every sub-module by its `name`; there is no default.
inline std::string required_name(const YAML::Node& n, const std::string& path) {
  if (!n || !n.IsMap() || !present(n, "name")) throw UsageError(path + ".name: missing");
  return config_detail::convert<std::string>(n["name"], path + ".name");
}

}  // namespace ocrforge::arch_yaml
