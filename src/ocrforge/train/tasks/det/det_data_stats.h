// Counts of what the detection data pipeline dropped, clipped, ignored or
// replaced, so the trainer can log a data summary (PaddleOCR drops most of
// these silently). Label-file counts are taken once when the list is read;
// the others each time a sample is loaded.
#pragma once

namespace ocrforge {

struct DetDataStats {
  // Read once, from the label files:
  long invalid_lines = 0;      // no delimiter, empty path, invalid JSON or not a list -> line skipped
  long few_points = 0;         // region with < 3 points (or non-numeric points) -> region dropped
  // Per load:
  long missing_images = 0;     // image file missing or unreadable -> sample replaced
  long undecodable = 0;        // read but not decodable -> sample replaced
  long no_text = 0;            // no region at all (empty JSON list): replaced in training (as
                               // PaddleOCR's DetLabelEncode), kept in evaluation
  long clipped = 0;            // region with points outside the image -> clipped to it
  long zero_area = 0;          // |area| < 1 pixel after clipping -> ignored ("###")
  long self_intersecting = 0;  // edges cross -> ignored
  long too_small = 0;          // shorter box side < min_text_size in MakeShrinkMap -> ignored
  long shrink_failed = 0;      // shrinking left no polygon -> ignored
  long no_text_replaced = 0;   // the part of no_text that was replaced (training)

  // Samples that were replaced by another one, for all reasons.
  long replaced() const { return missing_images + undecodable + no_text_replaced; }

  DetDataStats& operator+=(const DetDataStats& o) {
    invalid_lines += o.invalid_lines;
    few_points += o.few_points;
    missing_images += o.missing_images;
    undecodable += o.undecodable;
    no_text += o.no_text;
    no_text_replaced += o.no_text_replaced;
    clipped += o.clipped;
    zero_area += o.zero_area;
    self_intersecting += o.self_intersecting;
    too_small += o.too_small;
    shrink_failed += o.shrink_failed;
    return *this;
  }
};

}  // namespace ocrforge
