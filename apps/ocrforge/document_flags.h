// `ocrforge ocr`'s document flags (PDF and multi-page TIFF input, the
// --output_format files) and the glue between the per-image loop and the
// document outputs.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/document/document_inputs.h"
#include "ocr_outputs.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/document/document_outputs.h"

namespace ocrforge {

void declare_document_flags(FlagSet& flags);

struct DocumentFlags {
  std::set<std::string> formats;  // --output_format
  RenderOptions render;
  DocumentReadParams read;
};
// Throws UsageError naming the flag for a bad value.
DocumentFlags document_flags(const FlagSet& flags, const ImageReadParams& read);

// Names each page item's per-image outputs as PaddleOCR names PDF pages
// (scan.pdf_2, scan_2_res.json, scan_2.png).
void name_pages(OcrOutputs& outputs, const std::vector<InputItem>& items, const std::vector<std::string>& files);

// Lays out one page and hands it to the document outputs (`stems`: the
// output_stems of the input files); a document
// output that cannot be written is reported naming it. Returns 1 when an
// output failed (counted as a failure), else 0.
size_t add_document_page(DocumentOutputs& documents, const DocumentInputs& inputs, const std::string& key,
                         const cv::Mat& bgr, const OcrResult& result, const std::map<std::string, std::string>& stems);
// When `items` hold document pages (PDF or TIFF), fixes glibc's mmap
// threshold at 4 MiB (unless MALLOC_MMAP_THRESHOLD_ or GLIBC_TUNABLES set
// it): a page image at 300 dpi is tens of MiB, and once one such buffer is
// freed glibc's dynamic threshold would rise to it and serve every later
// page from the heap, which then grows with the page count
// (docs/documents.md#measurements).
void steady_memory_for_pages(const std::vector<InputItem>& items);

// Commits the last document's files; 1 when that failed (reported), else 0.
size_t finish_documents(DocumentOutputs& documents);

}  // namespace ocrforge
