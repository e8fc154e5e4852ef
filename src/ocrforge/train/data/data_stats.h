// Counts of what the recognition data pipeline dropped or replaced, so the
// trainer can log them (PaddleOCR logs each failure; we count by reason).
#pragma once

namespace ocrforge {

struct DataStats {
  long missing_images = 0;  // image file missing or unreadable -> sample replaced
  long undecodable = 0;     // file read but OpenCV could not decode it -> replaced
  long dropped_chars = 0;   // characters not in the dictionary, removed from labels
  long too_long = 0;        // label longer than max_text_length -> replaced
  long empty_label = 0;     // label empty (before or after dropping) -> replaced

  // Samples that were replaced by another one, for all reasons.
  long replaced() const { return missing_images + undecodable + too_long + empty_label; }

  DataStats& operator+=(const DataStats& o) {
    missing_images += o.missing_images;
    undecodable += o.undecodable;
    dropped_chars += o.dropped_chars;
    too_long += o.too_long;
    empty_label += o.empty_label;
    return *this;
  }
};

}  // namespace ocrforge
