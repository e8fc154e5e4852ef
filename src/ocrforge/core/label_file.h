// PaddleOCR label files (SimpleDataSet), one sample per line:
//   recognition: "train/word_001.jpg<TAB>Simple and reliable"
//   detection:   "imgs/img_1.jpg<TAB>[{"transcription": "MASA", "points": [[310, 104], ...]}, ...]"
// The line is split at the first delimiter; the path is kept as written
// (PaddleOCR joins it to Train.dataset.data_dir). Empty lines are skipped.
// Errors name the file and the 1-based line number.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace ocrforge {

struct RecLabel {
  std::string path;
  std::string text;
};

struct DetRegion {
  std::string transcription;
  std::vector<std::array<float, 2>> points;  // x, y in image pixels, >= 3 points
  // PaddleOCR's ignore tags: "###" and "*" mark regions the metric and the
  // shrink map ignore (unreadable or too small text).
  bool ignore() const { return transcription == "###" || transcription == "*"; }
};

struct DetLabel {
  std::string path;
  std::vector<DetRegion> regions;
};

// Parse one line. `file` and `line_no` only make error messages precise.
RecLabel parse_rec_label_line(const std::string& line, const std::string& file, size_t line_no,
                              char delimiter = '\t');
DetLabel parse_det_label_line(const std::string& line, const std::string& file, size_t line_no,
                              char delimiter = '\t');

// Read a whole file; throws Error when it cannot be read or a line is malformed.
std::vector<RecLabel> read_rec_labels(const std::string& file, char delimiter = '\t');
std::vector<DetLabel> read_det_labels(const std::string& file, char delimiter = '\t');

// Folder of a label file ("" -> "."), to which PaddleOCR-style relative
// paths are resolved by tools that have no data_dir ("a/b/rec_gt.txt" -> "a/b").
std::string label_file_dir(const std::string& file);

}  // namespace ocrforge
