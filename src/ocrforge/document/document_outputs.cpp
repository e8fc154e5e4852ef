#include "ocrforge/document/document_outputs.h"

#include <filesystem>

#include "ocrforge/core/error.h"

namespace fs = std::filesystem;

namespace ocrforge {

struct DocumentOutputs::Open {
  std::string file;
  int pages = 0;
  std::vector<std::unique_ptr<DocumentRenderer>> renderers;  // in renderer_kinds() order
};

DocumentOutputs::DocumentOutputs(const DocumentOutputParams& params) : params_(params) {}

DocumentOutputs::~DocumentOutputs() = default;  // an unfinished file's temp outputs are removed

void DocumentOutputs::add_page(const DocPage& page, const PageSource& src) {
  if (!enabled()) return;
  // The rest of a document whose outputs were dropped: nothing to add to.
  if (src.file == dropped_file_) return;
  if (open_ && open_->file != src.file) close();
  if (!open_) {
    auto o = std::make_unique<Open>();
    o->file = src.file;
    for (const auto& kind : renderer_kinds())
      if (params_.formats.count(kind.name))
        o->renderers.push_back(kind.begin((fs::path(params_.dir) / (src.stem + kind.extension)).string(), src,
                                          params_.render));
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
  const int number = ++open_->pages;
  for (auto& r : open_->renderers) r->add_page(page, src, number);
}

void DocumentOutputs::close() {
  if (!open_) return;
  std::unique_ptr<Open> o = std::move(open_);
  for (auto& r : o->renderers) written_.push_back(r->end());
}

void DocumentOutputs::finish() { close(); }

}  // namespace ocrforge
