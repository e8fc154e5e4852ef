// fingerprint.h: build, compare and (de)serialise worker fingerprints.
#include "ocrforge/train/dist/fingerprint.h"

#include <torch/version.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "ocrforge/core/config.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/fnv1a.h"
#include "ocrforge/core/json_bounded.h"
#include "ocrforge/version.h"

namespace ocrforge {

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::vector<std::string> label_files(const Config& config) {
  std::vector<std::string> files;
  const YAML::Node list = config.root()["Train"]["dataset"]["label_file_list"];
  if (list && list.IsSequence()) {
    for (const auto& f : list) files.push_back(f.as<std::string>());
  } else if (list && list.IsScalar()) {
    files.push_back(list.as<std::string>());
  }
  return files;
}

// Dotted key -> scalar text ("Train.loader.batch_size_per_card" -> "8").
void flatten(const YAML::Node& n, const std::string& prefix, std::map<std::string, std::string>* out) {
  if (n.IsMap()) {
    for (const auto& kv : n) flatten(kv.second, (prefix.empty() ? "" : prefix + ".") + kv.first.as<std::string>(), out);
  } else if (n.IsSequence()) {
    for (size_t i = 0; i < n.size(); ++i) flatten(n[i], prefix + "[" + std::to_string(i) + "]", out);
  } else {
    (*out)[prefix] = n.IsNull() ? "null" : n.as<std::string>();
  }
}

// "    Optimizer.lr.learning_rate: 0.005 on rank 0, 0.001 on rank 1" lines.
std::string config_differences(const std::vector<Fingerprint>& all) {
  std::vector<std::map<std::string, std::string>> flat(all.size());
  try {
    for (size_t i = 0; i < all.size(); ++i) flatten(YAML::Load(all[i].config_yaml), "", &flat[i]);
  } catch (const std::exception&) {
    return "";
  }
  std::map<std::string, std::string> lines;  // key -> explanation (sorted by key)
  for (size_t i = 1; i < all.size(); ++i) {
    std::map<std::string, std::string> keys = flat[0];
    keys.insert(flat[i].begin(), flat[i].end());
    for (const auto& kv : keys) {
      const auto a = flat[0].find(kv.first), b = flat[i].find(kv.first);
      const std::string va = a == flat[0].end() ? "(absent)" : a->second,
                        vb = b == flat[i].end() ? "(absent)" : b->second;
      if (va != vb && !lines.count(kv.first))
        lines[kv.first] =
            va + " on rank " + std::to_string(all[0].rank) + ", " + vb + " on rank " + std::to_string(all[i].rank);
    }
  }
  std::string out;
  size_t shown = 0;
  for (const auto& [key, text] : lines)
    if (shown++ < 10) out += "\n    " + key + ": " + text;
  if (lines.size() > 10) out += "\n    ... and " + std::to_string(lines.size() - 10) + " more keys";
  return out;
}

}  // namespace

const std::vector<std::string>& fingerprint_excluded_keys() {
  static const std::vector<std::string> keys = {"Global.num_threads"};
  return keys;
}

bool hash_file(const std::string& path, uint64_t* hash, uint64_t* size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  uint64_t h = kFnv1a64Basis, n = 0;
  char buf[1 << 16];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
    const auto got = static_cast<size_t>(in.gcount());
    h = fnv1a64(buf, got, h);
    n += got;
  }
  *hash = h;
  *size = n;
  return true;
}

Fingerprint make_fingerprint(const Config& config, int rank, const std::string& host) {
  Fingerprint f;
  f.rank = rank;
  f.host = host;
  f.items.emplace_back("ocrforge version", OCRFORGE_VERSION);
  f.items.emplace_back("libtorch version", TORCH_VERSION);
  Config shared = config;  // deep copy
  std::string excluded;
  for (const auto& key : fingerprint_excluded_keys()) {
    const auto dot = key.find('.');
    YAML::Node section = shared.root()[key.substr(0, dot)];
    if (section && section.IsMap()) section.remove(key.substr(dot + 1));
    excluded += (excluded.empty() ? "" : ", ") + key;
  }
  f.items.emplace_back("config hash (" + excluded + " excluded)", hex(shared.hash()));
  f.config_yaml = shared.to_yaml();
  for (const auto& path : label_files(config)) {
    uint64_t h = 0, size = 0;
    f.items.emplace_back("label file " + path,
                         hash_file(path, &h, &size) ? std::to_string(size) + " bytes, fnv1a64 " + hex(h) : "missing");
  }
  return f;
}

std::string Fingerprint::to_json() const {
  nlohmann::json items_json = nlohmann::json::array();
  for (const auto& [what, value] : items) items_json.push_back({what, value});
  return nlohmann::json{{"rank", rank}, {"host", host}, {"items", items_json}, {"config", config_yaml}}.dump();
}

Fingerprint Fingerprint::from_json(const std::string& text) {
  try {
    const auto j = parse_json_bounded(text);
    Fingerprint f;
    f.rank = j.at("rank").get<int>();
    f.host = j.at("host").get<std::string>();
    for (const auto& it : j.at("items")) f.items.emplace_back(it.at(0).get<std::string>(), it.at(1).get<std::string>());
    f.config_yaml = j.value("config", "");
    return f;
  } catch (const std::exception& e) {
    throw Error(std::string("rendezvous: malformed fingerprint from a peer (mixed ocrforge versions?): ") + e.what());
  }
}

std::string compare_fingerprints(const std::vector<Fingerprint>& all) {
  // Item names in first-seen order; an item a rank lacks counts as "absent".
  std::vector<std::string> names;
  for (const auto& f : all)
    for (const auto& [what, value] : f.items)
      if (std::find(names.begin(), names.end(), what) == names.end()) names.push_back(what);
  std::string report;
  for (const auto& name : names) {
    std::map<std::string, std::vector<const Fingerprint*>> by_value;
    for (const auto& f : all) {
      std::string value = "absent";
      for (const auto& [what, v] : f.items)
        if (what == name) value = v;
      by_value[value].push_back(&f);
    }
    if (by_value.size() < 2) continue;
    std::string line = name + " differs:";
    for (const auto& [value, ranks] : by_value) {
      line += " " + value + " on";
      for (size_t i = 0; i < ranks.size() && i < 8; ++i)
        line += std::string(i ? "," : "") + " rank " + std::to_string(ranks[i]->rank) + " (" + ranks[i]->host + ")";
      if (ranks.size() > 8) line += " and " + std::to_string(ranks.size() - 8) + " more";
      line += ";";
    }
    line.pop_back();
    if (name.rfind("config hash", 0) == 0) line += config_differences(all);
    report += (report.empty() ? "" : "\n") + line;
  }
  return report;
}

}  // namespace ocrforge
