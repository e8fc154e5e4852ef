// The page `ocrforge serve` answers at GET /: choose or drop an image, see
// the boxes over it and the text beside it, copy the text. The file is
// src/ocrforge/serve/web/index.html, built into the binary.
#pragma once
#include <string>

namespace ocrforge {

std::string web_page_html();

}  // namespace ocrforge
