// Direction-classifier data from upright text crops (`ocrforge data cls`).
//
// Every image of a recognition label file is written upright and turned by
// 180 degrees, OUT/cls_img/<n>_<stem>_0.png and _180.png, listed in
// OUT/cls_gt.txt as "cls_img/<name><TAB>0" / "<TAB>180" (PaddleOCR's cls
// label layout; the rec text is not needed). Both copies are lossless PNG,
// so compression artefacts cannot tell the classes apart. An unreadable
// image fails alone, named on `warnings`.
#pragma once
#include <ostream>
#include <string>

namespace ocrforge {

struct ClsPairSpec {
  std::string label;     // a recognition label file of upright crops
  std::string data_dir;  // folder its paths are relative to; empty: the label file's folder
  std::string out;       // output folder (cls_img/ and cls_gt.txt)
};

struct ClsPairReport {
  std::string cls_gt_path;
  long written = 0, failed = 0, bad_lines = 0;  // written: images (each gives two samples)
};

// Errors: an unreadable label file, an --out that would overwrite an input,
// a label file that lists no readable image.
ClsPairReport make_cls_pairs(const ClsPairSpec& spec, std::ostream& warnings);

}  // namespace ocrforge
