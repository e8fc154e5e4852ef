// Detection label files -> sample list (det_label_list.h).
#include "ocrforge/train/tasks/det/det_label_list.h"

#include <algorithm>
#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/vision/det_label_json.h"

namespace ocrforge {

namespace {

constexpr uint64_t kRatioSalt = 0x64657472ULL /* "detr" */;  // unchanged: the same lines stay sampled

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
  const std::vector<double> ratios = ratios_per_file(spec);
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
    for (size_t i : sample_lines(lines.size(), ratios[f], spec.seed, kRatioSalt, f)) {
      lines[i].path = join_data_path(spec.data_dir, lines[i].path);
      out.samples.push_back(std::move(lines[i]));
    }
  }
  if (out.samples.empty())
    throw Error("no detection sample left in '" + list_key + "' (" + std::to_string(out.stats.invalid_lines) +
                " invalid lines); check the label files (path<TAB>[{\"transcription\": ..., \"points\": ...}])");
  return out;
}

}  // namespace ocrforge
