// The per-input document files of `ocrforge ocr --output_format`: Tesseract's
// txt, hocr, alto (.xml), tsv and pdf, one file of each asked format per
// input file, holding all its pages. Pages arrive in order; a file's outputs
// are started by its first page and committed when the next file begins or
// at finish(). Each file is written under a temp name and renamed when
// complete, so an interrupted run leaves no half file.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/document/page_layout.h"

namespace ocrforge {

// "txt,hocr,alto,tsv,pdf" (any subset, any order) -> the set; "" -> empty.
// Throws UsageError naming --output_format for an unknown name.
std::set<std::string> parse_output_formats(const std::string& spec);

struct DocumentOutputParams {
  std::set<std::string> formats;
  std::string dir;            // output folder (exists)
  bool textonly_pdf = false;  // pdf pages without the image (Tesseract's textonly_pdf)
};

// What a page came from, for the PDF output.
struct PageSource {
  std::string file;        // the input file
  std::string stem;        // output base name for this input ("scan" -> scan.hocr, scan.pdf)
  bool is_pdf = false;     // a PDF input: its pages are kept, only text is added
  int pdf_page = -1;       // for a PDF input: the page's index in it
  bool single_image = false;  // `file` is this one page's image (JPEG/PNG can pass into the PDF unchanged)
  const cv::Mat* bgr = nullptr;  // the decoded page (pixels for the PDF when the file cannot pass)
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
