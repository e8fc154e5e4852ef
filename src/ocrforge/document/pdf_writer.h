// Searchable PDFs, written with qpdf (Apache-2.0, linked).
//
// SearchablePdf builds a new PDF from page images: each page shows its image
// (as pdf_image.h encodes it) under an invisible text layer
// (pdf_text_layer.h); with text_only, pages carry only the text (OCRmyPDF's
// engine interface grafts such a page onto its own). Image data waits in an
// unlinked spool file until the PDF is written, so memory does not grow with
// the page count.
//
// PdfTextOverlay adds text layers to the pages of an existing PDF and keeps
// everything else as it was: the original page contents and images are
// copied unchanged, as OCRmyPDF does; a page without OCR results stays as it
// is.
//
// Both write to a temp file beside the output and rename it into place at
// finish(): the output is whole or absent.
#pragma once
#include <memory>
#include <string>

#include "ocrforge/document/page_layout.h"
#include "ocrforge/document/pdf_image.h"
#include "ocrforge/document/pdf_text_layer.h"

namespace ocrforge {

class SearchablePdf {
 public:
  // Throws Error when the spool file cannot be made in the output's folder.
  SearchablePdf(const std::string& out_path, bool text_only);
  ~SearchablePdf();
  SearchablePdf(const SearchablePdf&) = delete;
  SearchablePdf& operator=(const SearchablePdf&) = delete;

  // A page as big as `page.info.size` at its dpi; `image` is ignored with
  // text_only (pass nullptr).
  void add_page(const PdfImage* image, const DocPage& page);
  int pages() const;
  // Writes the PDF; throws Error naming the file on failure.
  void finish();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

class PdfTextOverlay {
 public:
  // Opens `input_pdf` (read lazily: pages are copied at finish()).
  explicit PdfTextOverlay(const std::string& input_pdf);
  ~PdfTextOverlay();
  PdfTextOverlay(const PdfTextOverlay&) = delete;
  PdfTextOverlay& operator=(const PdfTextOverlay&) = delete;

  // How page `index` (0-based) was shown when rendered at dpi (its CropBox
  // and /Rotate).
  PdfPageFrame frame(int index, double dpi_x, double dpi_y);
  // Adds `page`'s words over page `index`, placed through `frame`.
  void add_text(int index, const DocPage& page, const PdfPageFrame& frame);
  // Writes the document with its text layers to `out_path`.
  void finish(const std::string& out_path);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace ocrforge
