// Detection label files -> sample list (det_label_list.h).
#include "ocrforge/train/data/det_label_list.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/vision/det_label_json.h"

namespace ocrforge {

namespace {

std::string join_path(const std::string& data_dir, const std::string& path) {
  if (data_dir.empty()) return path;
  return (std::filesystem::path(data_dir) / path).string();  // like os.path.join: absolute path wins
}

// Indices of the lines kept by ratio sampling, in file order.
std::vector<size_t> sample_lines(size_t n, double ratio, uint64_t seed, size_t file_index) {
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (ratio >= 1.0) return idx;
  const size_t keep = std::min(n, static_cast<size_t>(std::nearbyint(static_cast<double>(n) * std::max(ratio, 0.0))));
  DataRng rng(data_seed({seed, 0x64657472ULL /* "detr" */, file_index}));
  for (size_t i = 0; i < keep; ++i) std::swap(idx[i], idx[i + rng.index(n - i)]);  // partial Fisher-Yates
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  return idx;
}

}  // namespace

bool parse_det_label_lenient(const std::string& line, char delimiter, DetLabel* out, DetDataStats* stats) {
  std::string path, rest;
  if (!split_det_line(line, delimiter, &path, &rest)) {
    ++stats->invalid_lines;
    return false;
  }
  DetJsonParse parsed = parse_det_json(rest);
  if (!parsed.ok) {
    ++stats->invalid_lines;
    return false;
  }
  stats->few_points += parsed.few_points;
  out->path = std::move(path);
  out->regions = std::move(parsed.regions);
  return true;
}

DetLabelList read_det_label_list(const DetLabelListSpec& spec) {
  const std::string list_key = spec.config_key + ".label_file_list";
  if (spec.label_file_list.empty()) throw Error("'" + list_key + "' names no label file");
  std::vector<double> ratios = spec.ratio_list;
  if (ratios.empty()) ratios.assign(spec.label_file_list.size(), 1.0);
  if (ratios.size() == 1) ratios.assign(spec.label_file_list.size(), ratios[0]);
  if (ratios.size() != spec.label_file_list.size())
    throw Error("'" + spec.config_key + ".ratio_list' has " + std::to_string(spec.ratio_list.size()) +
                " values but '" + list_key + "' has " + std::to_string(spec.label_file_list.size()) + " files");
  DetLabelList out;
  for (size_t f = 0; f < spec.label_file_list.size(); ++f) {
    const std::string& file = spec.label_file_list[f];
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("label file '" + file + "' (" + list_key + ") cannot be read (missing or no permission)");
    std::vector<DetLabel> lines;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line == "\r") continue;
      DetLabel label;
      if (parse_det_label_lenient(line, spec.delimiter, &label, &out.stats)) lines.push_back(std::move(label));
    }
    for (size_t i : sample_lines(lines.size(), ratios[f], spec.seed, f)) {
      lines[i].path = join_path(spec.data_dir, lines[i].path);
      out.samples.push_back(std::move(lines[i]));
    }
  }
  if (out.samples.empty())
    throw Error("no detection sample left in '" + list_key + "' (" + std::to_string(out.stats.invalid_lines) +
                " invalid lines); check the label files (path<TAB>[{\"transcription\": ..., \"points\": ...}])");
  return out;
}

}  // namespace ocrforge
