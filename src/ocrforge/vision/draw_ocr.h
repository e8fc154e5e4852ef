// Visualisation like PaddleOCR's draw_ocr_box_txt: on the left the image with
// translucent coloured boxes, on the right a white canvas with the box
// outlines and the recognised text written into each box.
#pragma once
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/vision/text_box.h"

namespace ocrforge {

// A CJK-capable font found on this machine (Noto Sans CJK, then other
// Noto/DejaVu fonts), or "" when none is installed.
std::string default_font_path();
// The font a visualisation will use, checked once before a run: a
// `font_path` that is no file is a warning on stderr (prefixed by `who`,
// e.g. "ocrforge ocr") and "" (the default) is used; no default CJK font is a
// warning too (non-Latin text is drawn as '?').
std::string checked_font_path(const std::string& font_path, const std::string& who);

// Returns an image of size (2W) x H. `font_path` "" means default_font_path();
// when no font can be loaded the text is drawn with OpenCV's Hershey font
// (ASCII only) rather than failing. Colours come from a fixed seed so the
// same input gives the same picture.
cv::Mat draw_ocr_box_txt(const cv::Mat& image, const std::vector<Quad>& boxes,
                         const std::vector<std::string>& texts, const std::string& font_path = "");

}  // namespace ocrforge
