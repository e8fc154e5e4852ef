// PaddleOCR's CopyPaste (ppocr/data/imaug/copy_paste.py), the PP-OCRv3
// detection augmentation: text regions cut from another training image are
// pasted, each turned by a random angle, at random places of this one, and
// become text regions of it.
//   - Up to max(1, min(int(objects_paste_ratio x #regions of the other
//     image), 30)) of its cared-for regions are taken, in random order; a
//     region is cut out as `ocr` crops a line (perspective warp of its four
//     points, cubic, border replicated; turned 90 degrees when it is at least
//     1.5 times taller than wide). Regions without four points are skipped.
//   - Each crop is rotated by a random whole angle in [0, 360) (canvas grown
//     to hold it), pasted where its bounding box lies inside the image and,
//     with limit_paste, does not touch any region's bounding box (50 tries,
//     else that crop is dropped); its rotated rectangle is the new region.
//   - Finally every region is clipped into the image, as PaddleOCR does.
// One deliberate difference: PaddleOCR's overlap test passes the box's right
// edge where its left edge belongs (is_poly_outside_rect(poly, xmax1, ...)),
// so its "free" test looks one box-width to the right; ocrforge tests the
// box's own place. PIL's rotate and the region's corners are computed here
// with one matrix (PaddleOCR mixes PIL's canvas rounding with OpenCV's), so
// the pasted pixels and the new region agree exactly.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/train/data/data_rng.h"
#include "ocrforge/train/tasks/det/det_polygon.h"

namespace ocrforge {

struct DetCopyPasteParams {
  double objects_paste_ratio = 0.2;  // share of the other image's regions to paste (1 to 30 of them)
  bool limit_paste = true;           // paste only where no region is
};

// img / polys / ignore: this sample (BGR 8-bit, image pixels); ext_*: the
// other image and its validated regions (ext_ignore true = not cared for,
// never pasted). Appends the pasted regions (ignore false).
void copy_paste(const DetCopyPasteParams& p, DataRng& rng, const cv::Mat& ext_img,
                const std::vector<DetPolygon>& ext_polys, const std::vector<bool>& ext_ignore, cv::Mat* img,
                std::vector<DetPolygon>* polys, std::vector<bool>* ignore);

}  // namespace ocrforge
