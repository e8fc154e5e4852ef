// A PDF as `ocrforge ocr` opens it: qpdf's parse (with repair), the page
// count, each page's shape and its own scan image (the image streams
// decoded within the pixel budget). Rendering (pdftoppm) is not fuzzed here.
#include "../fuzz_target.h"
#include "ocrforge/document/pdf_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const fuzz::MemoryFile file(fuzz::bytes_of(data, size));
  fuzz::refusals_allowed([&] {
    PdfSource pdf(file.path());
    const int pages = pdf.page_count();
    for (int i = 0; i < pages && i < 4; ++i) {
      fuzz::refusals_allowed([&] {
        (void)pdf.shape(i);
        const cv::Mat scan = pdf.scan_image(i, fuzz::kMaxPixels);
        if (static_cast<int64_t>(scan.total()) > fuzz::kMaxPixels) throw std::logic_error("decoded past the budget");
      });
    }
  });
  return 0;
}
