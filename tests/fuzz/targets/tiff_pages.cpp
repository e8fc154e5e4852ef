// A multi-page TIFF as `ocrforge ocr` reads it: the directory chain (libtiff
// with bounded allocations), then the first pages decoded within the pixel
// budget, in order and out of order.
#include "../fuzz_target.h"
#include "ocrforge/document/tiff_pages.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ocrforge;
  const fuzz::MemoryFile file(fuzz::bytes_of(data, size));
  fuzz::refusals_allowed([&] {
    if (!looks_like_tiff(file.path())) return;
    const std::vector<TiffPage> pages = tiff_pages(file.path(), 16);
    for (int i : {0, 1, 2, 1}) {
      if (i >= static_cast<int>(pages.size())) continue;
      fuzz::refusals_allowed([&] {
        const cv::Mat bgr = read_tiff_page(file.path(), i, pages[static_cast<size_t>(i)], fuzz::kMaxPixels);
        if (static_cast<int64_t>(bgr.total()) > fuzz::kMaxPixels) throw std::logic_error("decoded past the budget");
      });
    }
  });
  return 0;
}
