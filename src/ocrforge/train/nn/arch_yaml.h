// Readers shared by the Architecture / Loss parsers of every task
// (rec_arch_spec.cpp, det_arch_spec.cpp): one typed read that records the key
// as read (core/config_reads.h), so a typo is reported as an unknown key once
// the whole config is read, the same way for every task. Internal to train/.
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

// The config layer's one typed reader (config.h): a wrong value names its full
// key here exactly as everywhere else. Absent or null keys keep `out`. Lists
// accept a single value, as PaddleOCR does for strides and kernel sizes.
template <typename T>
void read(const YAML::Node& m, const std::string& key, const std::string& path, T& out) {
  note_config_read(path + "." + key);
  if (present(m, key)) out = config_detail::convert<T>(m[key], path + "." + key);
}

// PaddleOCR builds every sub-module by its `name`; there is no default.
inline std::string required_name(const YAML::Node& n, const std::string& path) {
  note_config_read(path + ".name");
  if (!n || !n.IsMap() || !present(n, "name")) throw UsageError(path + ".name: missing");
  return config_detail::convert<std::string>(n["name"], path + ".name");
}

// PaddleOCR's backbones take `pretrained: true` (or a URL) to download
// ImageNet weights; ocrforge downloads nothing, so only false / absent passes.
inline bool backbone_downloads(const YAML::Node& pretrained) {
  return pretrained && !pretrained.IsNull() &&
         !(pretrained.IsScalar() && (pretrained.Scalar() == "false" || pretrained.Scalar() == "False"));
}

// UsageError naming `path`.pretrained when the backbone would download its
// weights (`ocrforge check -c` warns of it instead: config_check.cpp).
inline void refuse_backbone_download(const YAML::Node& n, const std::string& path) {
  note_config_read(path + ".pretrained");
  if (backbone_downloads(n["pretrained"]))
    throw UsageError(path + ".pretrained: backbone weights downloaded by the backbone are not supported yet "
                            "(ocrforge downloads nothing); set it to false and give the weights as "
                            "Global.pretrained_model (.pdparams, a checkpoint or PaddleOCR's inference.onnx)");
}

}  // namespace ocrforge::arch_yaml
