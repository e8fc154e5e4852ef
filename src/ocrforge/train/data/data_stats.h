// Counts of what a data pipeline dropped, replaced or repaired, so the
// trainer can log them (PaddleOCR logs each failure; we count by reason).
// The named fields are the recognition pipeline's; other tasks add their own
// reasons under `other` (e.g. "invalid polygons"), so the loader and the
// trainer stay task-free.
#pragma once
#include <map>
#include <string>

namespace ocrforge {

struct DataStats {
  long missing_images = 0;  // image file missing or unreadable -> sample replaced
  long undecodable = 0;     // file read but OpenCV could not decode it -> replaced
  long dropped_chars = 0;   // characters not in the dictionary, removed from labels
  long too_long = 0;        // label longer than max_text_length -> replaced
  long empty_label = 0;     // label empty (before or after dropping) -> replaced
  std::map<std::string, long> other;  // task-specific reason -> count

  // Samples that were replaced by another one, for the named reasons.
  long replaced() const { return missing_images + undecodable + too_long + empty_label; }

  DataStats& operator+=(const DataStats& o) {
    missing_images += o.missing_images;
    undecodable += o.undecodable;
    dropped_chars += o.dropped_chars;
    too_long += o.too_long;
    empty_label += o.empty_label;
    for (const auto& [k, v] : o.other) other[k] += v;
    return *this;
  }

  // One line for the training log: "3 missing images, 0 undecodable, ...".
  std::string describe() const {
    std::string s = std::to_string(missing_images) + " missing images, " + std::to_string(undecodable) +
                    " undecodable, " + std::to_string(too_long) + " too long, " + std::to_string(empty_label) +
                    " empty labels (replaced); " + std::to_string(dropped_chars) +
                    " characters not in the dictionary dropped";
    for (const auto& [k, v] : other) s += "; " + std::to_string(v) + " " + k;
    return s;
  }
};

}  // namespace ocrforge
