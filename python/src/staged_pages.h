// Staged pages of a split PDF (batch.cpp). A PDF split into several work
// units gets its --output_format files from one assembly step once all its
// units are done; each unit stages what the page layout needs of its pages
// (the OcrResult lines with their words, the page size, the dpi) in a binary
// file. Floats are kept as their bytes, so the documents assembled from the
// staged pages equal those one process writes from the results themselves.
#pragma once
#include <string>
#include <vector>

#include "ocrforge/document/document_inputs.h"
#include "ocrforge/document/page_layout.h"
#include "ocrforge/infer/ocr_pipeline.h"

namespace ocrforge::python {

// What every staged file starts with.
std::string staged_header();

// Appends one page (the item's page number and kind, its layout info and
// the recognised lines) to `out`, which starts with staged_header().
void stage_page(std::string& out, const InputItem& it, const PageInfo& info, const OcrResult& r);

struct StagedPage {
  InputItem item;  // file, page, kind (pdf_page or tiff_page), not single
  PageInfo info;
  OcrResult result;  // image_size and lines (box, text, score, words)
};

// The pages staged in `path` (of the input `file`), in order. Throws Error
// naming the path when it is missing, not a staged file, or cut short.
std::vector<StagedPage> read_staged_pages(const std::string& path, const std::string& file);

}  // namespace ocrforge::python
