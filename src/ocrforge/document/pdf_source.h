// Reading a PDF as page images: qpdf (linked) opens the file and reports its
// pages, encryption and damage; poppler's pdftoppm, run as a separate
// program, renders each page. pdftoppm is GPL: running it as a child process
// keeps GPL code out of ocrforge's binaries (docs/documents.md).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

struct PdfPageShape {
  double width_pt = 0, height_pt = 0;  // as shown (CropBox, after /Rotate)
  // Resolution of the page's scan: the pixels of its one image over the
  // page's size, when the page shows exactly one image; 0 otherwise.
  double scan_dpi = 0;
};

class PdfSource {
 public:
  // Opens `path`. Throws Error naming the file when it is not a PDF, cannot
  // be parsed even with qpdf's repair, is encrypted (ocrforge does not
  // decrypt: the message says how), or has no pages. A damaged file that
  // qpdf could repair opens, with warnings().
  explicit PdfSource(const std::string& path);
  ~PdfSource();
  PdfSource(const PdfSource&) = delete;
  PdfSource& operator=(const PdfSource&) = delete;

  const std::string& path() const { return path_; }
  int page_count() const;
  // What qpdf had to repair, one line each (empty for a sound file).
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Size and scan resolution of page `index` (0-based).
  PdfPageShape shape(int index);

  // The page's own scan, decoded from the PDF as it is stored (no
  // rendering, so the very pixels that were scanned): when page `index` is
  // unrotated and shows exactly one 8-bit grey or RGB image, without a mask,
  // stored as JPEG (DCTDecode) or Flate (any of qpdf's general filters),
  // whose shape matches the page's. Empty otherwise (then render it). Throws
  // Error only for a pixel count over `max_pixels` (<= 0: no cap).
  cv::Mat scan_image(int index, int64_t max_pixels);

  // Renders page `index` at `dpi` with pdftoppm (its CropBox, as shown) to
  // 8-bit BGR. Throws Error naming the file and page when the page would
  // have more than `max_pixels` pixels (checked before rendering; <= 0: no
  // cap) or when pdftoppm fails.
  cv::Mat render(int index, double dpi, int64_t max_pixels);

 private:
  struct State;
  std::string path_;
  std::unique_ptr<State> s_;
  std::vector<std::string> warnings_;
};

// True when the file starts like a PDF ("%PDF-" within its first 1024
// bytes, as readers accept).
bool looks_like_pdf(const std::string& path);

}  // namespace ocrforge
