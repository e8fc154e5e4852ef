// Small typed readers for the data sections of a config: every failure names
// the full key path (e.g. "Train.loader.batch_size_per_card"), as the config
// convention asks. Internal to train/data.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge::data_yaml {

// The config layer's typed conversion (config.h), so the data sections
// accept exactly what the schema check accepted (`shuffle: 1`, `1e-3`) and
// name the key the same way.
inline double number(const YAML::Node& n, const std::string& path) { return config_detail::convert<double>(n, path); }
inline int integer(const YAML::Node& n, const std::string& path) { return config_detail::convert<int>(n, path); }
inline bool boolean(const YAML::Node& n, const std::string& path) { return config_detail::convert<bool>(n, path); }
inline std::string string(const YAML::Node& n, const std::string& path) {
  note_config_read(path);
  if (!n.IsScalar()) throw UsageError("config key '" + path + "': expected a single value");
  return n.Scalar();
}

// A list, or one scalar taken as a list of one (PaddleOCR accepts both for
// label_file_list and ratio_list).
inline std::vector<std::string> string_list(const YAML::Node& n, const std::string& path) {
  note_config_read(path);
  if (n.IsScalar()) return {n.Scalar()};
  if (!n.IsSequence()) throw UsageError("config key '" + path + "': expected a list");
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) out.push_back(string(n[i], path + "[" + std::to_string(i) + "]"));
  return out;
}

inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The value of `key` in map `n` (found at `path`), recorded as read
// (core/config_reads.h) whether present or not: a key no reader asks for is
// reported as unknown after the config is read.
inline YAML::Node at(const YAML::Node& n, const std::string& path, const std::string& key) {
  note_config_read(path + "." + key);
  if (!n || !n.IsMap()) return YAML::Node();
  return n[key];
}

// Entry i of a `transforms` list (`where` is its key path), which must be one
// `{Name: {params}}` map whose Name is in `known` (else the error suggests the
// closest) and not already in `seen` (name -> index, updated here).
struct TransformEntry {
  std::string name;
  YAML::Node params;
  std::string path;  // where + "." + name, for the parameters' errors
};
inline TransformEntry transform_entry(const YAML::Node& transforms, size_t i, const std::string& where,
                                      const std::vector<std::string>& known, std::map<std::string, size_t>* seen) {
  const YAML::Node item = transforms[i];
  const std::string at = where + "[" + std::to_string(i) + "]";
  if (!item.IsMap() || item.size() != 1) throw UsageError("config key '" + at + "': expected one '{Name: {params}}' map");
  TransformEntry e;
  e.name = item.begin()->first.as<std::string>();
  e.params = item.begin()->second;
  e.path = where + "." + e.name;
  bool is_known = false;
  for (const auto& k : known) is_known = is_known || k == e.name;
  if (!is_known) {
    const std::string hint = closest_match(e.name, known);
    throw UsageError("unknown transform '" + e.name + "' at '" + at + "'" +
                     (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; known: " + joined(known));
  }
  note_config_read(e.path);
  if (!seen->emplace(e.name, i).second) throw UsageError("transform '" + e.name + "' is listed twice in '" + where + "'");
  return e;
}

}  // namespace ocrforge::data_yaml
