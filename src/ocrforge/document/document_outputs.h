// The per-input document files of `ocrforge ocr --output_format`: one file
// of each asked format (a renderer, document_renderer.h) per input file,
// holding all its pages. Pages arrive in order; a file's outputs
// are started by its first page and committed when the next file begins or
// at finish(). Each file is written under a temp name and renamed when
// complete, so an interrupted run leaves no half file.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/document/document_renderer.h"
#include "ocrforge/document/page_layout.h"

namespace ocrforge {

struct DocumentOutputParams {
  std::set<std::string> formats;  // renderer names (document_renderer.h)
  std::string dir;                // output folder (exists)
  RenderOptions render;
};

class DocumentOutputs {
 public:
  explicit DocumentOutputs(const DocumentOutputParams& params);
  ~DocumentOutputs();
  DocumentOutputs(const DocumentOutputs&) = delete;
  DocumentOutputs& operator=(const DocumentOutputs&) = delete;

  bool enabled() const { return !params_.formats.empty(); }
  // Adds one OCR'd page of `src.file`; a page of another file than the last
  // one first commits that file's outputs. Throws Error naming the output
  // file that cannot be written; that file's outputs are then dropped whole
  // (its later pages start them afresh and fail the same way on a full disk).
  void add_page(const DocPage& page, const PageSource& src);
  // Commits the outputs of the file in progress.
  void finish();
  // The files committed so far.
  const std::vector<std::string>& written() const { return written_; }

 private:
  struct Open;
  void append_page(const DocPage& page, const PageSource& src);
  void close();

  DocumentOutputParams params_;
  std::unique_ptr<Open> open_;
  std::string dropped_file_;  // the last file whose outputs were dropped
  std::vector<std::string> written_;
};

}  // namespace ocrforge
