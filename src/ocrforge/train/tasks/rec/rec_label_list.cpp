// Label files -> sample list (rec_label_list.h). Problems are collected and
// reported together so a user fixes a label file in one pass, before any
// training time is spent.
#include "ocrforge/train/tasks/rec/rec_label_list.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

constexpr size_t kShownBadLines = 5;

constexpr uint64_t kRatioSalt = 0x7261746fULL /* "rato" */;  // unchanged: the same lines stay sampled

}  // namespace

std::vector<RecLabel> read_rec_label_list(const RecLabelListSpec& spec) {
  const std::string list_key = spec.config_key + ".label_file_list";
  const std::vector<double> ratios = ratios_per_file(spec);

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
    for (size_t i : sample_lines(lines.size(), ratios[f], spec.seed, kRatioSalt, f)) {
      RecLabel r = std::move(lines[i]);
      r.path = join_data_path(spec.data_dir, r.path);
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
