// The pdf renderer: a searchable PDF of page images with invisible text, or,
// for a PDF input, the input's own pages with the text added (its pages are
// kept as they are, only an invisible text layer joins them).
#include <optional>

#include "ocrforge/core/error.h"
#include "ocrforge/document/document_renderer.h"
#include "ocrforge/document/pdf_writer.h"

namespace ocrforge {

namespace {

class PdfRenderer : public DocumentRenderer {
 public:
  PdfRenderer(const std::string& path, const PageSource& first, bool textonly) : path_(path), textonly_(textonly) {
    if (first.is_pdf && !textonly) overlay_ = std::make_unique<PdfTextOverlay>(first.file);
    else pdf_ = std::make_unique<SearchablePdf>(path, textonly);
  }

  void add_page(const DocPage& page, const PageSource& src, int) override {
    if (overlay_) {
      overlay_->add_text(src.pdf_page, page, overlay_->frame(src.pdf_page, page.info.dpi_x, page.info.dpi_y));
      return;
    }
    if (textonly_) {
      pdf_->add_page(nullptr, page);
      return;
    }
    std::optional<PdfImage> image;
    if (src.single_image) image = pdf_image_from_file(src.file);  // a JPEG passes into the PDF unchanged
    if (!image) {
      if (!src.bgr || src.bgr->empty()) throw Error("no page image for the PDF of '" + src.file + "'");
      image = pdf_image_from_pixels(*src.bgr);
    }
    pdf_->add_page(&*image, page);
  }

  std::string end() override {
    if (overlay_) overlay_->finish(path_);
    else pdf_->finish();
    return path_;
  }

 private:
  std::string path_;
  bool textonly_;
  std::unique_ptr<SearchablePdf> pdf_;
  std::unique_ptr<PdfTextOverlay> overlay_;
};

}  // namespace

std::unique_ptr<DocumentRenderer> begin_pdf(const std::string& path, const PageSource& first, const RenderOptions& o) {
  return std::make_unique<PdfRenderer>(path, first, o.textonly_pdf);
}

}  // namespace ocrforge
