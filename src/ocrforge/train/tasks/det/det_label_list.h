// The sample list of a detection SimpleDataSet: label files read leniently
// (bad lines and bad regions are skipped and counted, not fatal: PaddleOCR
// would crash or silently drop them mid-training), then sampled by ratio_list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/core/label_file.h"
#include "ocrforge/train/data/label_list_spec.h"
#include "ocrforge/train/tasks/det/det_data_stats.h"

namespace ocrforge {

using DetLabelListSpec = LabelListSpec;

struct DetLabelList {
  std::vector<DetLabel> samples;  // paths joined to data_dir; regions with >= 3 points
  DetDataStats stats;             // invalid_lines and few_points
};

// Parses one label line leniently: false (and ++stats->invalid_lines) for a
// line without delimiter, with an empty path, invalid JSON or JSON that is
// not a list; regions with fewer than 3 points are dropped (++few_points).
// An empty list gives a label with no regions (an image without text).
bool parse_det_label_lenient(const std::string& line, char delimiter, DetLabel* out, DetDataStats* stats);

// Reads every label file (blank lines skipped). A file keeps
// round(lines * ratio) of its lines (half to even), chosen with (seed, file
// index), in file order. Throws Error when a label file cannot be read
// (naming it and `<config_key>.label_file_list`), when ratio_list does not
// match label_file_list, or when no sample is left.
DetLabelList read_det_label_list(const DetLabelListSpec& spec);

}  // namespace ocrforge
