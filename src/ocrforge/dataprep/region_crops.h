// Recognition crops from a detection label file (`ocrforge data crop`).
//
// Every readable region of PaddleOCR's detection label file
// (`path<TAB>[{"transcription": ..., "points": ...}, ...]`) becomes
// OUT/crop_img/<image stem>_crop_<k>.jpg, listed in OUT/rec_gt.txt as
// "crop_img/<name><TAB>transcription" (PPOCRLabel's "export recognition
// result" layout; train with data_dir OUT). Regions are straightened as the
// OCR pipeline straightens detections (vision/region_crop.h). Skipped and
// counted: "###" / "*" regions, empty transcriptions, transcriptions with a
// tab or line break (they cannot be a rec label), regions thinner than
// 2 pixels. An unreadable image or a failing region fails alone, named on
// `warnings`; the others are still written, and rec_gt.txt appears whole.
#pragma once
#include <ostream>
#include <string>

namespace ocrforge {

struct RegionCropSpec {
  std::string label;     // the detection label file
  std::string data_dir;  // folder its paths are relative to; empty: the label file's folder
  std::string out;       // output folder (crop_img/ and rec_gt.txt)
};

// What a crop run wrote and skipped, by reason.
struct RegionCropReport {
  std::string rec_gt_path;
  long crops = 0, images = 0, failed_images = 0, bad_lines = 0, ignored = 0, empty_text = 0, bad_text = 0,
       degenerate = 0, few_points = 0, failed_regions = 0;
  bool any_failed() const { return failed_images + failed_regions > 0; }
};

// Errors (not per-image failures): an unreadable label file, an --out that
// would overwrite an input, a label file with no readable region at all.
RegionCropReport crop_label_regions(const RegionCropSpec& spec, std::ostream& warnings);

}  // namespace ocrforge
