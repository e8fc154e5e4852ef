#include "ocrforge/dataprep/label_lines.h"

#include <fstream>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"

namespace ocrforge {

std::vector<std::string> read_label_lines(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "' (" + flag + "): missing or no permission");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    strip_utf8_bom(&line);
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

std::string join_label_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace ocrforge
