// A TIFF opened with libtiff (the library OpenCV decodes TIFFs with), from a
// path or from bytes in memory, with libtiff's messages kept for errors
// instead of printed, and its allocations bounded. Used where ocrforge needs
// a TIFF's directories without decoding pixels: the image header check
// (image_header.h) and a document's pages (document/tiff_pages.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <opencv2/core.hpp>

typedef struct tiff TIFF;

namespace ocrforge {

// One directory (page) of a TIFF, as libtiff reads it.
struct TiffDirectory {
  int64_t width = 0, height = 0;
  double dpi_x = 0, dpi_y = 0;  // 0 when the file does not say
};

class TiffFile {
 public:
  // Opens `path`. Throws Error naming it when libtiff cannot.
  // `max_single_alloc` bounds each allocation libtiff makes (0: the default
  // for reading directories, 64 MiB); a page decoder needs its strips.
  static TiffFile open_path(const std::string& path, int64_t max_single_alloc = 0);
  // Opens `size` bytes at `data` (not copied: they must outlive this).
  // Throws Error with libtiff's message when it cannot.
  static TiffFile open_memory(const char* data, size_t size);

  TiffFile(TiffFile&&) noexcept;
  TiffFile& operator=(TiffFile&&) noexcept;
  ~TiffFile();

  // The current directory (the first, after opening).
  TiffDirectory directory() const;
  // Moves to the next directory; false at the end. Throws Error when the
  // next one is unreadable (libtiff also refuses directory chains that loop).
  bool next_directory();
  // The current directory's index (0: the first page).
  int directory_index() const;
  // Moves to directory `index` (libtiff walks the chain from the start).
  // Throws Error when there is no such directory.
  void set_directory(int index);
  // Decodes the current directory to 8-bit BGR with libtiff's RGBA reader
  // (every photometric and bit depth it converts). An empty Mat, with the
  // reason in *why, when libtiff cannot convert this page (e.g. float
  // samples); Error when its data is damaged or the page, as this
  // directory says, has more than `max_pixels` pixels (<= 0: no cap).
  cv::Mat read_bgr(std::string* why, int64_t max_pixels);
  // libtiff's last error or warning message ("" if none).
  std::string last_message() const;

 private:
  struct Impl;
  explicit TiffFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ocrforge
