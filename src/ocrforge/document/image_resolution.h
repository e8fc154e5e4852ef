// The resolution an image file states in its header (JPEG's JFIF density,
// PNG's pHYs chunk), for the page size of its searchable PDF and hOCR's
// scan_res.
#pragma once
#include <string>

namespace ocrforge {

struct Resolution {
  double x = 0, y = 0;  // dots per inch; 0 when the file does not say
};

Resolution image_resolution(const std::string& path);

}  // namespace ocrforge
