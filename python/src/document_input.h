// PDFs and multi-page TIFFs given to the Python module (a path or bytes),
// read through the library's document layer (ocrforge/document/
// document_inputs.h), as the CLI and the server read them: the pages are
// listed when the document is opened (qpdf / the TIFF's directories, nothing
// decoded) and each page is decoded only when it is asked for, so one page
// image at a time is in memory however long the document is.
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "image_input.h"
#include "ocrforge/document/document_inputs.h"

namespace ocrforge::python {

class Document {
 public:
  enum class Kind { pdf, tiff };

  // The document at `path`, or nullptr when the file is neither a PDF nor a
  // TIFF (an ordinary image: decode_file reads it). Throws InputNotFound /
  // InputIsFolder / InputUnreadable for the path itself and BadInput when
  // the document cannot be opened (broken, encrypted, no pages, over
  // max_pages, no page selected).
  static std::shared_ptr<Document> open_file(const std::string& path, const DocumentReadParams& params);
  // The same for bytes in memory (spooled to a private temporary file that
  // is removed with the Document); `name` stands for them in messages.
  static std::shared_ptr<Document> open_bytes(std::string_view data, const std::string& name,
                                              const DocumentReadParams& params);

  Kind kind() const { return kind_; }
  const std::string& name() const { return name_; }
  size_t pages() const { return items_.size(); }
  // Page number in the file (0-based) of selected page `i`.
  int page_index(size_t i) const;
  // How many pages the file has (a single-page TIFF is read as an image).
  bool single_page() const { return !items_.empty() && items_.front().single; }

  // Decodes selected page `i` (thread-safe; one page decoded at a time) and
  // applies PaddleOCR's inv / bin. BadInput naming the page when it cannot
  // be decoded or is over the pixel budget.
  InputImage decode(size_t i, const Preprocess& pre);

 private:
  Document(Kind kind, std::string name, const DocumentReadParams& params);
  void check_index(size_t i) const;

  Kind kind_;
  std::string name_;
  std::mutex mu_;
  std::unique_ptr<DocumentInputs> inputs_;
  std::vector<InputItem> items_;
};

}  // namespace ocrforge::python
