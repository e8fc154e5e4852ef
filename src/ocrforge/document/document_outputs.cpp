#include "ocrforge/document/document_outputs.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "ocrforge/core/atomic_file.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/document/alto.h"
#include "ocrforge/document/hocr.h"
#include "ocrforge/document/pdf_writer.h"
#include "ocrforge/document/tsv.h"

namespace fs = std::filesystem;

namespace ocrforge {

std::set<std::string> parse_output_formats(const std::string& spec) {
  static const std::vector<std::string> known = {"txt", "hocr", "alto", "tsv", "pdf"};
  std::set<std::string> out;
  for (const std::string& part : split(spec, ',')) {
    const std::string name = to_lower(trim(part));
    if (name.empty()) continue;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      const std::string hint = closest_match(name, known);
      throw UsageError("--output_format: unknown format '" + name + "'" +
                       (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                       "; the formats are txt, hocr, alto, tsv, pdf, comma-separated");
    }
    out.insert(name);
  }
  return out;
}

struct DocumentOutputs::Open {
  std::string file;
  int pages = 0;
  std::unique_ptr<StagedFile> txt, hocr, alto, tsv;
  std::unique_ptr<SearchablePdf> pdf;
  std::unique_ptr<PdfTextOverlay> overlay;
  std::string pdf_path;
};

DocumentOutputs::DocumentOutputs(const DocumentOutputParams& params) : params_(params) {}

DocumentOutputs::~DocumentOutputs() = default;  // an unfinished file's temp outputs are removed

void DocumentOutputs::add_page(const DocPage& page, const PageSource& src) {
  if (!enabled()) return;
  // The rest of a document whose outputs were dropped: nothing to add to.
  if (src.file == dropped_file_) return;
  if (open_ && open_->file != src.file) close();
  const auto path = [&](const std::string& ext) { return (fs::path(params_.dir) / (src.stem + ext)).string(); };
  const auto& f = params_.formats;
  if (!open_) {
    auto o = std::make_unique<Open>();
    o->file = src.file;
    if (f.count("txt")) o->txt = std::make_unique<StagedFile>(path(".txt"));
    if (f.count("hocr")) {
      o->hocr = std::make_unique<StagedFile>(path(".hocr"));
      o->hocr->append(hocr_begin());
    }
    if (f.count("alto")) {
      o->alto = std::make_unique<StagedFile>(path(".xml"));
      o->alto->append(alto_begin(fs::path(src.file).filename().string()));
    }
    if (f.count("tsv")) {
      o->tsv = std::make_unique<StagedFile>(path(".tsv"));
      o->tsv->append(tsv_header());
    }
    if (f.count("pdf")) {
      o->pdf_path = path(".pdf");
      if (src.is_pdf && !params_.textonly_pdf) o->overlay = std::make_unique<PdfTextOverlay>(src.file);
      else o->pdf = std::make_unique<SearchablePdf>(o->pdf_path, params_.textonly_pdf);
    }
    open_ = std::move(o);
  }
  try {
    append_page(page, src);
  } catch (...) {
    // A document whose page could not be written is left out whole: its
    // temp outputs are removed, none is committed half-written.
    open_.reset();
    dropped_file_ = src.file;
    throw;
  }
}

void DocumentOutputs::append_page(const DocPage& page, const PageSource& src) {
  Open& o = *open_;
  const int number = ++o.pages;
  if (o.txt) o.txt->append(page_text(page) + "\f");
  if (o.hocr) o.hocr->append(hocr_page(page, number));
  if (o.alto) o.alto->append(alto_page(page, number));
  if (o.tsv) o.tsv->append(tsv_page(page, number));
  if (o.overlay) {
    o.overlay->add_text(src.pdf_page, page, o.overlay->frame(src.pdf_page, page.info.dpi_x, page.info.dpi_y));
  } else if (o.pdf) {
    if (params_.textonly_pdf) {
      o.pdf->add_page(nullptr, page);
    } else {
      std::optional<PdfImage> image;
      if (src.single_image) image = pdf_image_from_file(src.file);
      if (!image) {
        if (!src.bgr || src.bgr->empty()) throw Error("no page image for the PDF of '" + src.file + "'");
        image = pdf_image_from_pixels(*src.bgr);
      }
      o.pdf->add_page(&*image, page);
    }
  }
}

void DocumentOutputs::close() {
  if (!open_) return;
  std::unique_ptr<Open> o = std::move(open_);
  if (o->txt) {
    o->txt->commit();
    written_.push_back(o->txt->path());
  }
  if (o->hocr) {
    o->hocr->append(hocr_end());
    o->hocr->commit();
    written_.push_back(o->hocr->path());
  }
  if (o->alto) {
    o->alto->append(alto_end());
    o->alto->commit();
    written_.push_back(o->alto->path());
  }
  if (o->tsv) {
    o->tsv->commit();
    written_.push_back(o->tsv->path());
  }
  if (o->overlay) {
    o->overlay->finish(o->pdf_path);
    written_.push_back(o->pdf_path);
  } else if (o->pdf) {
    o->pdf->finish();
    written_.push_back(o->pdf_path);
  }
}

void DocumentOutputs::finish() { close(); }

}  // namespace ocrforge
