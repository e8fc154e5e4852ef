// ALTO v4 (valid against alto-4-4.xsd): Description (pixel units, source
// file, the OCR software), then per page Page / PrintSpace / ComposedBlock
// (a block) / TextBlock (a paragraph) / TextLine / String with WC (0-1) and
// SP between words.
#pragma once
#include <string>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// `source_file`: the input's file name, for sourceImageInformation.
std::string alto_begin(const std::string& source_file);
// `number`: 1-based position of the page in this file (IDs, PHYSICAL_IMG_NR).
std::string alto_page(const DocPage& page, int number);
std::string alto_end();

}  // namespace ocrforge
