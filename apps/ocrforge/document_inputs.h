// `ocrforge ocr`'s inputs as pages: an image file is one page; a PDF gives
// its selected pages, rendered by pdftoppm at --pdf_dpi; a multi-page TIFF
// gives its pages, decoded one at a time. Each page is an item with a key
// (the image's path, or "'<file>' page N") that the per-image loops use as
// its name, so a failing page is reported and skipped like a failing image.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ocr_flags.h"
#include "ocrforge/document/page_selection.h"
#include "ocrforge/document/pdf_source.h"
#include "ocrforge/document/tiff_pages.h"
#include "ocrforge/infer/image_reader.h"

namespace ocrforge {

struct InputItem {
  enum class Kind { image, pdf_page, tiff_page };
  std::string key;   // name in messages: the path, or "'<file>' page N" (1-based)
  std::string file;
  Kind kind = Kind::image;
  int page = 0;            // 0-based index in the file
  bool single = true;      // the file is this one page: outputs are named as for an image
  double dpi = 0;          // resolution of the page image (0: known once decoded)
  TiffPage tiff;
};

struct DocumentReadParams {
  ImageReadParams read;
  PageSelection pages;     // --pages
  int page_num = 0;        // --page_num: the first N selected pages (0: all)
  int max_pages = 1000;    // --max_pages: a document with more pages to read is refused
  double pdf_dpi = 300;    // --pdf_dpi (0: the page's own scan image, see PdfSource::scan_image; 300 when it has none)
  double image_dpi = 0;    // --image_dpi (0: the file's own, 300 when it states none)
};

class DocumentInputs {
 public:
  explicit DocumentInputs(const DocumentReadParams& params) : p_(params) {}

  // Items of `files` in order. A document that cannot be opened (broken,
  // encrypted, no pages, over --max_pages) is reported on stderr naming the
  // file and counted in failed(); the other files still give their items.
  std::vector<InputItem> expand(const std::vector<std::string>& files, const char* command);
  size_t failed() const { return failed_; }

  const InputItem& item(const std::string& key) const { return items_.at(key); }
  // Decodes the page of `key` (thread-safe against dpi_of; one decoding thread).
  LoadedImage decode(const std::string& key);
  // The page image's resolution (after decode for --pdf_dpi 0).
  double dpi_of(const std::string& key) const;

 private:
  void add_pdf(const std::string& file, std::vector<InputItem>& out);
  void add_tiff(const std::string& file, std::vector<InputItem>& out);
  // `counted_in_full`: false when `count` stopped one past a cap (there may be more).
  std::vector<int> selected(int count, const std::string& file, bool counted_in_full = true) const;

  DocumentReadParams p_;
  std::map<std::string, InputItem> items_;
  size_t failed_ = 0;
  std::unique_ptr<PdfSource> open_pdf_;  // the document being decoded
  mutable std::mutex mutex_;
  std::map<std::string, double> decoded_dpi_;
};

}  // namespace ocrforge
