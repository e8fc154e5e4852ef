// What every SimpleDataSet reads its samples from (the `dataset` keys shared
// by recognition and detection), and the rules both apply to it: one ratio per
// label file, PaddleOCR's line sampling and os.path.join-style paths. Each
// task parses its own line format (rec_label_list.h, det_label_list.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ocrforge {

struct LabelListSpec {
  std::string data_dir;                      // image paths are joined to it (absolute paths kept)
  std::vector<std::string> label_file_list;  // one or more label files
  // Per file, the fraction of its lines kept; empty = 1.0 for all; one value
  // = that value for all (PaddleOCR accepts a scalar).
  std::vector<double> ratio_list;
  char delimiter = '\t';
  uint64_t seed = 1024;                      // Global.seed: which lines ratio_list keeps
  std::string config_key = "Train.dataset";  // named in error messages
};

// One ratio per label file (ratio_list expanded as above). Throws Error naming
// `<config_key>.ratio_list` when the counts differ or a ratio is outside [0, 1],
// and `<config_key>.label_file_list` when it names no file.
std::vector<double> ratios_per_file(const LabelListSpec& spec);

// Indices of the `n` lines of file `file_index` kept by `ratio`: all when
// ratio >= 1, else round(n * ratio) (half to even, as Python's round) chosen
// by (seed, salt, file_index), in file order. `salt` keeps the tasks' draws
// apart.
std::vector<size_t> sample_lines(size_t n, double ratio, uint64_t seed, uint64_t salt, size_t file_index);

// data_dir / path, like os.path.join (an absolute path wins; empty data_dir keeps path).
std::string join_data_path(const std::string& data_dir, const std::string& path);

}  // namespace ocrforge
