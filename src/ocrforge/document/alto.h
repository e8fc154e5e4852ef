// ALTO v4 (valid against alto-4-4.xsd) or v3 (alto-3-0.xsd, as Tesseract 5
// writes it, for consumers built on Tesseract's output): Description (pixel
// units, source file, the OCR software), then per page Page / PrintSpace /
// ComposedBlock (a block) / TextBlock (a paragraph) / TextLine / String with
// WC (0-1) and SP between words. The two differ in their namespace and in
// page numbering: v4 numbers pages from 1, v3 from 0 as Tesseract does.
#pragma once
#include <string>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

enum class AltoVersion { v3, v4 };

// `source_file`: the input's file name, for sourceImageInformation.
std::string alto_begin(const std::string& source_file, AltoVersion version = AltoVersion::v4);
// `number`: 1-based position of the page in this file (IDs, PHYSICAL_IMG_NR:
// `number` in v4, `number` - 1 in v3).
std::string alto_page(const DocPage& page, int number, AltoVersion version = AltoVersion::v4);
std::string alto_end();

}  // namespace ocrforge
