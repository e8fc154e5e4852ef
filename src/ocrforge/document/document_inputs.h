// Every front end's inputs as pages (the CLI, the C++ API, Python and the
// server read the same inputs the same way through this one layer): an image
// file is one page; a PDF gives its selected pages, rendered by pdftoppm at
// --pdf_dpi; a multi-page TIFF gives its pages, decoded one at a time; bytes
// in memory (an upload) and arrays are read as the file they hold would be.
// Each page is an item with a key (the image's path, or "'<file>' page N")
// that the per-image loops use as its name, so a failing page is reported
// and skipped like a failing image. Pages are decoded one at a time when
// asked for (decode), under the pixel budget of DocumentReadParams::read.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/core/flags.h"
#include "ocrforge/document/page_selection.h"
#include "ocrforge/document/pdf_source.h"
#include "ocrforge/document/tiff_pages.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_flags.h"

namespace ocrforge {

struct InputItem {
  enum class Kind { image, pdf_page, tiff_page, image_bytes, array };
  std::string key;   // name in messages: the path, or "'<file>' page N" (1-based)
  std::string file;
  Kind kind = Kind::image;
  int page = 0;            // 0-based index in the file
  bool single = true;      // the file is this one page: outputs are named as for an image
  double dpi = 0;          // resolution of the page image (0: known once decoded)
  TiffPage tiff;
  std::shared_ptr<const std::string> bytes;  // Kind::image_bytes: the encoded image
  cv::Mat array;                             // Kind::array: the page itself (8-bit BGR)
};

struct DocumentReadParams {
  ImageReadParams read;
  PageSelection pages;     // --pages
  int page_num = 0;        // --page_num: the first N selected pages (0: all)
  int max_pages = 1000;    // --max_pages: a document with more pages to read is refused
  double pdf_dpi = 300;    // --pdf_dpi (0: the page's own scan image, see PdfSource::scan_image; 300 when it has none)
  double image_dpi = 0;    // --image_dpi (0: the file's own, 300 when it states none)
};

// What a file held in memory is, told as readers tell it: a PDF signature
// within the first 1024 bytes; a TIFF's byte-order mark and 42 (or 43, BigTIFF).
bool bytes_look_like_pdf(const std::string& bytes);
bool bytes_look_like_tiff(const std::string& bytes);

// The document-reading flags (--pages, --page_num, --max_pages, --pdf_dpi,
// --image_dpi) and their reading; UsageError names the flag of a bad value.
void declare_document_read_flags(FlagSet& flags);
DocumentReadParams document_read_params_from_flags(const FlagSet& flags);

class DocumentInputs {
 public:
  explicit DocumentInputs(const DocumentReadParams& params) : p_(params) {}
  ~DocumentInputs();  // removes the spooled copies of documents read from memory
  DocumentInputs(const DocumentInputs&) = delete;
  DocumentInputs& operator=(const DocumentInputs&) = delete;

  // Items of `files` in order. A document that cannot be opened (broken,
  // encrypted, no pages, over --max_pages) is reported on stderr naming the
  // file and counted in failed(); the other files still give their items.
  std::vector<InputItem> expand(const std::vector<std::string>& files, const char* command);
  size_t failed() const { return failed_; }

  // The items of one file; throws Error naming it when it cannot be read
  // (for callers that answer one input at a time: Python, the server).
  std::vector<InputItem> expand_file(const std::string& file);
  // The items of a file held in memory, `name` standing for it in keys and
  // messages: a PDF or TIFF is written to a private temporary file (qpdf,
  // pdftoppm and libtiff read files) removed with this object; an image is
  // one item, its header checked against the pixel budget now. Throws Error.
  std::vector<InputItem> expand_bytes(const std::string& name, std::string bytes);
  // One page given as pixels (8-bit grey, BGR or BGRA; converted to BGR).
  InputItem add_array(const std::string& name, const cv::Mat& page);
  // What the files read so far had to have repaired, one line each, since
  // the last call (expand() prints them on stderr itself).
  std::vector<std::string> take_warnings() { return std::exchange(warnings_, {}); }

  const InputItem& item(const std::string& key) const { return items_.at(key); }
  // Decodes the page of `key` (thread-safe against dpi_of; one decoding thread).
  LoadedImage decode(const std::string& key);
  // The page image's resolution (after decode for --pdf_dpi 0).
  double dpi_of(const std::string& key) const;

 private:
  std::vector<InputItem> items_of(const std::string& file, const std::string& name);
  LoadedImage decode_page(const InputItem& it, const std::string& key);
  void remember(const std::vector<InputItem>& items);
  // `file` is read; `name` stands for it in keys and messages.
  void add_pdf(const std::string& file, const std::string& name, std::vector<InputItem>& out);
  void add_tiff(const std::string& file, const std::string& name, std::vector<InputItem>& out);
  // `counted_in_full`: false when `count` stopped one past a cap (there may be more).
  std::vector<int> selected(int count, const std::string& file, bool counted_in_full = true) const;

  DocumentReadParams p_;
  std::map<std::string, InputItem> items_;
  size_t failed_ = 0;
  std::unique_ptr<PdfSource> open_pdf_;  // the document being decoded
  mutable std::mutex mutex_;
  std::map<std::string, double> decoded_dpi_;
  std::vector<std::string> warnings_;
  std::map<std::string, std::string> spooled_;  // temporary file of expand_bytes -> the name it stands for
};

}  // namespace ocrforge
