// Tesseract's TSV: one row per page, block, paragraph, line and word
// (level 1-5) with page_num, block_num, par_num, line_num, word_num, the box
// (left, top, width, height), conf (-1 except for words, 0-100) and text.
#pragma once
#include <string>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// The header row (once per file).
std::string tsv_header();
// `number`: 1-based page_num.
std::string tsv_page(const DocPage& page, int number);

}  // namespace ocrforge
