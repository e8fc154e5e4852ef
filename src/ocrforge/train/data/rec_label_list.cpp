// Label files -> sample list (rec_label_list.h). Problems are collected and
// reported together so a user fixes a label file in one pass, before any
// training time is spent.
#include "ocrforge/train/data/rec_label_list.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "ocrforge/core/error.h"
#include "ocrforge/train/data/data_rng.h"

namespace ocrforge {

namespace {

constexpr size_t kShownBadLines = 5;

std::string join_path(const std::string& data_dir, const std::string& path) {
  if (data_dir.empty()) return path;
  return (std::filesystem::path(data_dir) / path).string();  // like os.path.join: absolute path wins
}

// Indices of the lines kept by ratio sampling, in file order.
std::vector<size_t> sample_lines(size_t n, double ratio, uint64_t seed, size_t file_index) {
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (ratio >= 1.0) return idx;
  const size_t keep = std::min(n, static_cast<size_t>(std::nearbyint(static_cast<double>(n) * ratio)));
  DataRng rng(data_seed({seed, 0x7261746fULL /* "rato" */, file_index}));
  for (size_t i = 0; i < keep; ++i) std::swap(idx[i], idx[i + rng.index(n - i)]);  // partial Fisher-Yates
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  return idx;
}

}  // namespace

std::vector<RecLabel> read_rec_label_list(const RecLabelListSpec& spec) {
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

  std::vector<RecLabel> out;
  std::vector<std::string> bad;  // first few malformed lines, all files together
  size_t bad_count = 0;
  for (size_t f = 0; f < spec.label_file_list.size(); ++f) {
    const std::string& file = spec.label_file_list[f];
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("label file '" + file + "' (from " + list_key + ") does not exist or cannot be read");
    std::vector<RecLabel> lines;
    std::string line;
    size_t line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos && line.find(spec.delimiter) == std::string::npos)
        continue;  // blank line
      try {
        lines.push_back(parse_rec_label_line(line, file, line_no, spec.delimiter));
      } catch (const Error& e) {
        if (bad.size() < kShownBadLines) bad.push_back(std::string(e.what()) + ": \"" + line + "\"");
        ++bad_count;
      }
    }
    for (size_t i : sample_lines(lines.size(), ratios[f], spec.seed, f)) {
      RecLabel r = std::move(lines[i]);
      r.path = join_path(spec.data_dir, r.path);
      out.push_back(std::move(r));
    }
  }
  if (bad_count > 0) {
    std::string msg = std::to_string(bad_count) + " malformed label line(s) in " + list_key +
                      " (expected 'image_path<delimiter>text'; check " + spec.config_key + ".delimiter):";
    for (const auto& b : bad) msg += "\n  " + b;
    if (bad_count > bad.size()) msg += "\n  ... and " + std::to_string(bad_count - bad.size()) + " more";
    throw Error(msg);
  }
  if (out.empty())
    throw Error("the label files of " + list_key + " hold no samples" +
                (spec.ratio_list.empty() ? std::string() : " after ratio_list sampling"));
  return out;
}

}  // namespace ocrforge
