// Multi-page TIFF: the pages' sizes and resolutions from the file's IFDs
// (read with libtiff, without decoding), and one page decoded at a time
// (libtiff's RGBA reader on a file kept open between calls), so a 500-page
// fax never sits in memory at once, reading pages in order costs one
// directory step each, and a page claiming a giant size is refused before
// it is decoded.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace ocrforge {

struct TiffPage {
  int width = 0, height = 0;
  double dpi_x = 0, dpi_y = 0;  // 0 when the file does not say
};

// True when the file starts with a TIFF signature (II*. or MM.*, BigTIFF too).
bool looks_like_tiff(const std::string& path);

// The pages of a TIFF file, reading at most `max_pages` + 1 IFDs (so a
// caller can tell that there are more than max_pages). Throws Error naming
// the file when the header or an IFD is unreadable or the IFD chain loops.
std::vector<TiffPage> tiff_pages(const std::string& path, int max_pages);

// Decodes page `index` (0-based) to 8-bit BGR. Throws Error naming the file
// and page when it has more than `max_pixels` pixels (<= 0: no cap) or
// cannot be decoded.
cv::Mat read_tiff_page(const std::string& path, int index, const TiffPage& page, int64_t max_pixels);

}  // namespace ocrforge
