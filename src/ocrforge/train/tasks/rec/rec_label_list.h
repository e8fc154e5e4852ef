// The sample list of a SimpleDataSet: label files read, sampled by
// ratio_list and validated before training starts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ocrforge/core/label_file.h"
#include "ocrforge/train/data/label_list_spec.h"

namespace ocrforge {

using RecLabelListSpec = LabelListSpec;

// Reads every label file. A line is `path<delimiter>text`, split at the first
// delimiter (the text keeps any further delimiters; PaddleOCR would drop
// them); "\r\n" endings are accepted; blank lines are skipped. A file keeps
// round(lines * ratio) of its lines (half to even, as Python's round), chosen
// with (seed, file index) and kept in file order. Returned paths are joined
// to data_dir.
// Throws Error when a label file cannot be read (naming it and
// `<config_key>.label_file_list`), when lines have no delimiter or an empty
// path (file, line numbers and text of the first 5 bad lines), when
// ratio_list does not match label_file_list, or when no sample is left.
std::vector<RecLabel> read_rec_label_list(const RecLabelListSpec& spec);

}  // namespace ocrforge
