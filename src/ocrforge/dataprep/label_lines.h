// Reading a label file as lines, as every `ocrforge data` chore does.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// The non-blank lines of `path`, without a trailing CR or a UTF-8 BOM.
// Error naming the file and `flag` (the option that named it) when it cannot be read.
std::vector<std::string> read_label_lines(const std::string& path, const std::string& flag);

// The lines joined, each ended by a line break.
std::string join_label_lines(const std::vector<std::string>& lines);

}  // namespace ocrforge
