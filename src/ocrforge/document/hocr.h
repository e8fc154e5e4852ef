// hOCR 1.2 (Tesseract's layout): XHTML 1.0 Transitional with ocr_page,
// ocr_carea, ocr_par, ocr_line and ocrx_word elements, each titled with its
// bbox; words carry x_wconf (0-100), lines a baseline and x_size.
#pragma once
#include <string>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// The document: hocr_begin(), one hocr_page() per page, hocr_end().
std::string hocr_begin();
// `number`: 1-based position of the page in this hOCR file (element ids).
std::string hocr_page(const DocPage& page, int number);
std::string hocr_end();

}  // namespace ocrforge
