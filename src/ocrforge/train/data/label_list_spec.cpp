// Shared label-list rules (label_list_spec.h).
#include "ocrforge/train/data/label_list_spec.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

std::vector<double> ratios_per_file(const LabelListSpec& spec) {
  const std::string list_key = spec.config_key + ".label_file_list";
  if (spec.label_file_list.empty()) throw Error("config key '" + list_key + "' names no label file");
  std::vector<double> ratios = spec.ratio_list;
  if (ratios.empty()) ratios.assign(spec.label_file_list.size(), 1.0);
  if (ratios.size() == 1) ratios.assign(spec.label_file_list.size(), ratios[0]);
  if (ratios.size() != spec.label_file_list.size())
    throw Error("config key '" + spec.config_key + ".ratio_list' has " + std::to_string(ratios.size()) +
                " values but '" + list_key + "' has " + std::to_string(spec.label_file_list.size()) +
                " files: give one ratio per file");
  for (double r : ratios)
    if (!(r >= 0.0 && r <= 1.0)) throw Error("config key '" + spec.config_key + ".ratio_list': ratios must be in [0, 1]");
  return ratios;
}

std::vector<size_t> sample_lines(size_t n, double ratio, uint64_t seed, uint64_t salt, size_t file_index) {
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (ratio >= 1.0) return idx;
  const size_t keep = std::min(n, static_cast<size_t>(std::nearbyint(static_cast<double>(n) * std::max(ratio, 0.0))));
  DataRng rng(data_seed({seed, salt, file_index}));
  for (size_t i = 0; i < keep; ++i) std::swap(idx[i], idx[i + rng.index(n - i)]);  // partial Fisher-Yates
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  return idx;
}

std::string join_data_path(const std::string& data_dir, const std::string& path) {
  if (data_dir.empty()) return path;
  return (std::filesystem::path(data_dir) / path).string();
}

}  // namespace ocrforge
