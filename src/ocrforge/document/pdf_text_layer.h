// The invisible text of a searchable PDF page: each word drawn in render
// mode 3 with the glyphless font, its baseline along the bottom edge of its
// box, its size the box's height and its horizontal scale (Tz) such that the
// word spans exactly its box; a space glyph between words of a line, so
// text extraction sees word breaks. A word tilted by less than 10 degrees
// from an axis is drawn along that axis (over its extent): pdftotext cuts
// slightly tilted words apart.
#pragma once
#include <string>

#include <opencv2/core.hpp>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// How a page image (pixels, y down, from the top-left of the page as shown)
// lies on a PDF page: the shown box [llx, lly, urx, ury] in user space (the
// CropBox, or MediaBox), the page's /Rotate (0, 90, 180, 270: clockwise when
// shown) and the image's resolution.
struct PdfPageFrame {
  double llx = 0, lly = 0, urx = 612, ury = 792;
  int rotate = 0;
  double dpi_x = 300, dpi_y = 300;
};

// The frame of a new page that shows a `size` pixel image at `dpi`.
PdfPageFrame image_page_frame(cv::Size size, double dpi_x, double dpi_y);

// A page-image pixel position in PDF user space.
cv::Point2d to_user_space(const PdfPageFrame& frame, cv::Point2d pixel);

// The content stream operators that draw `page`'s words with the font
// resource named `font` (e.g. "/OcrforgeFont"). Empty for a page without words.
std::string text_layer_operators(const DocPage& page, const PdfPageFrame& frame, const std::string& font);

// `text` as the font's character codes: UTF-16 code units in hex, two bytes
// each (characters beyond the BMP become U+FFFD).
std::string to_cid_hex(const std::string& text);

}  // namespace ocrforge
