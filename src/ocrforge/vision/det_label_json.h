// Tolerant reading of the JSON half of a detection label or result line, for
// tools that must count bad input instead of stopping at it (the detection
// training data and `ocrforge eval-det`). core/label_file.h stays the strict
// reader that names the first bad line.
//
// Accepted forms of the JSON list:
//   label / system_results.txt: [{"transcription": "MASA", "points": [[x, y], ...]}, ...]
//   det_results.txt:            [[[x, y], ...], ...]
//   PaddleOCR's infer_det:      [{"points": [[x, y], ...]}, ...]
#pragma once
#include <string>
#include <vector>

#include "ocrforge/core/label_file.h"

namespace ocrforge {

struct DetJsonParse {
  bool ok = false;               // false: not JSON, or not a list (error says why)
  std::string error;
  std::vector<DetRegion> regions;  // regions with >= 3 numeric points, in file order
  long few_points = 0;           // regions dropped: fewer than 3 points, or points not [x, y] numbers
};

// Parses `json` (the text after the delimiter). Never throws.
DetJsonParse parse_det_json(const std::string& json);

// Splits a line at the first `delimiter` into path and the rest ("\r" at the
// end dropped). False when there is no delimiter or the path is empty.
bool split_det_line(std::string line, char delimiter, std::string* path, std::string* rest);

}  // namespace ocrforge
