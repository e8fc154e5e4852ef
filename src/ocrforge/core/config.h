// A training config in PaddleOCR's schema: YAML file + `-o Key.sub=value`
// overrides + typed reads (docs/config.md). Which keys exist is decided by
// the readers: every typed read is recorded (config_reads.h) and the train
// layer reports the keys no reader read.
//
//   Config cfg = Config::load_file("configs/rec/rec_tiny_test.yml");
//   cfg.apply_overrides({"Global.epoch_num=3", "Global.eval_batch_step=[0, 50]"});
//   int epochs = cfg.require<int>("Global.epoch_num");
//   double lr = cfg.get<double>("Optimizer.lr.learning_rate", 0.001);  // 1e-3 works too
//   cfg.save(save_model_dir + "/config.yml");                          // the resolved config
//
// Read the config once and convert it to typed parameter structs
// (architecture.md, Convention 2); code below that never looks up keys.
//
// A key whose value is null (`pretrained_model:` with nothing after it) counts
// as absent for has/get/require, as in PaddleOCR where it reads as None.
//
// Copies are deep: YAML::Node has reference semantics, Config does not.
// YAML anchors/aliases are resolved into independent copies on load, so an
// override changes only the key it names.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ocrforge/core/config_reads.h"
#include "ocrforge/core/error.h"

namespace ocrforge {

namespace config_detail {
// Strict scalar readers (false when `text` is not of that kind). Numbers
// accept PaddleOCR's forms 0.001, 1e-3, 1.0e-3; booleans true/True/yes/on/1.
bool read_bool(const std::string& text, bool* out);
bool read_int(const std::string& text, long long* out);
bool read_number(const std::string& text, double* out);
// "a map", "a list" or the scalar in quotes: what was found instead.
std::string describe_value(const YAML::Node& node);

// Converts a present, non-null node to T (recording `key` as read,
// config_reads.h); throws UsageError naming `key`
// and the expected kind. Defined in config.cpp for: bool, int, long,
// long long, float, double, std::string, std::vector<int>, std::vector<long long>,
// std::vector<float>, std::vector<double>, std::vector<std::string>, YAML::Node.
// A vector accepts a single scalar as a one-element list (`a.txt` == `[a.txt]`).
template <typename T>
T convert(const YAML::Node& node, const std::string& key);
template <> bool convert<bool>(const YAML::Node&, const std::string&);
template <> int convert<int>(const YAML::Node&, const std::string&);
template <> long convert<long>(const YAML::Node&, const std::string&);
template <> long long convert<long long>(const YAML::Node&, const std::string&);
template <> float convert<float>(const YAML::Node&, const std::string&);
template <> double convert<double>(const YAML::Node&, const std::string&);
template <> std::string convert<std::string>(const YAML::Node&, const std::string&);
template <> std::vector<int> convert<std::vector<int>>(const YAML::Node&, const std::string&);
template <> std::vector<long long> convert<std::vector<long long>>(const YAML::Node&, const std::string&);
template <> std::vector<float> convert<std::vector<float>>(const YAML::Node&, const std::string&);
template <> std::vector<double> convert<std::vector<double>>(const YAML::Node&, const std::string&);
template <> std::vector<std::string> convert<std::vector<std::string>>(const YAML::Node&, const std::string&);
template <> YAML::Node convert<YAML::Node>(const YAML::Node&, const std::string&);
}  // namespace config_detail

class Config {
 public:
  Config();  // an empty map of sections, origin "<empty>"
  Config(const Config& other);
  Config& operator=(const Config& other);
  Config(Config&& other);             // leaves `other` an empty config
  Config& operator=(Config&& other);

  // UsageError naming the file when it is missing or unreadable, not valid
  // YAML (with line and column) or not a map of sections. Does not validate.
  static Config load_file(const std::string& path);
  static Config from_string(const std::string& yaml, const std::string& origin = "<string>");

  // "A.b.c=value": split at the first '='; the value is parsed as YAML
  // (`[0, 2000]`, `true`, `1e-3`, `"quoted"`, empty = null). The first key
  // must be an existing section and every key between must exist and be a
  // map; the last key is set, created if missing. Keys without a section
  // (`epoch_num=3`) are rejected with a hint (PaddleOCR would set a
  // top-level key). Throws UsageError naming the override.
  void apply_override(const std::string& assignment);
  // Applies each in order. A typo creates a new key (as in PaddleOCR),
  // which the reading pass then reports as unknown with a suggestion.
  void apply_overrides(const std::vector<std::string>& assignments);

  YAML::Node& root();
  const YAML::Node& root() const;

  bool has(const std::string& dotted) const;
  // `fallback` when absent; UsageError naming the key when present but of the wrong type.
  template <typename T>
  T get(const std::string& dotted, const T& fallback) const {
    YAML::Node node;
    return lookup(dotted, &node) ? config_detail::convert<T>(node, dotted) : fallback;
  }
  // UsageError "missing config key 'Global.save_model_dir'" when absent.
  template <typename T>
  T require(const std::string& dotted) const {
    YAML::Node node;
    if (!lookup(dotted, &node)) throw UsageError(origin_ + ": missing config key '" + dotted + "'");
    return config_detail::convert<T>(node, dotted);
  }
  // Sets a key from code (derived values such as Global.distributed),
  // creating missing maps on the way. Prefer apply_override for user input.
  template <typename T>
  void set(const std::string& dotted, const T& value) {
    set_node(dotted, YAML::Node(value));
  }
  void set_node(const std::string& dotted, const YAML::Node& value);

  // The resolved config as YAML (key order kept; quoted strings stay quoted).
  std::string to_yaml() const;
  // Writes to_yaml() atomically (write_file_atomic); the folder must exist.
  void save(const std::string& path) const;
  // FNV-1a 64 of to_yaml(): equal configs give equal hashes on every machine.
  uint64_t hash() const;
  // The file name, or the origin given to from_string.
  const std::string& origin() const;

 private:
  // Sets *out to the node at `dotted`; false when absent or null.
  bool lookup(const std::string& dotted, YAML::Node* out) const;

  YAML::Node root_;
  std::string origin_;
};

// Reads `key` of the map `map` (found at config path `path`, e.g.
// "Optimizer.lr") into *out when it is present and not null; false when
// absent. UsageError naming "path.key" on a wrong kind. The one typed reader
// for config sub-trees (Config::get is the same for whole-config paths).
template <typename T>
bool read_key(const YAML::Node& map, const std::string& path, const std::string& key, T* out) {
  note_config_read(path.empty() ? key : path + "." + key);
  if (!map || !map.IsMap()) return false;
  const YAML::Node n = map[key];
  if (!n || n.IsNull()) return false;
  *out = config_detail::convert<T>(n, path.empty() ? key : path + "." + key);
  return true;
}

// Value ranges of numeric config keys: UsageError "Global.epoch_num: must be
// >= 1 (got -1)" when out of range, so nonsense never trains silently.
void require_at_least(double value, double min, const std::string& key);
void require_above(double value, double min, const std::string& key);
void require_between(double value, double lo, double hi, const std::string& key);

// Declared here too so that `#include "ocrforge/core/config.h"` is enough to save files.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace ocrforge
