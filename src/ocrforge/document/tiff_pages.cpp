#include "ocrforge/document/tiff_pages.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/tiff_file.h"

namespace ocrforge {

bool looks_like_tiff(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char s[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(s), 4);
  if (in.gcount() != 4) return false;
  return (s[0] == 'I' && s[1] == 'I' && (s[2] == 42 || s[2] == 43) && s[3] == 0) ||
         (s[0] == 'M' && s[1] == 'M' && s[2] == 0 && (s[3] == 42 || s[3] == 43));
}

std::vector<TiffPage> tiff_pages(const std::string& path, int max_pages) {
  // libtiff reads the directories, as it will when OpenCV decodes a page:
  // the sizes checked against the budget are the ones decoded.
  TiffFile tiff = TiffFile::open_path(path);
  std::vector<TiffPage> pages;
  do {
    const TiffDirectory d = tiff.directory();
    TiffPage page;
    page.width = static_cast<int>(std::min<int64_t>(d.width, INT32_MAX));
    page.height = static_cast<int>(std::min<int64_t>(d.height, INT32_MAX));
    page.dpi_x = d.dpi_x;
    page.dpi_y = d.dpi_y;
    pages.push_back(page);
  } while (static_cast<int>(pages.size()) <= max_pages && tiff.next_directory());
  return pages;
}

cv::Mat read_tiff_page(const std::string& path, int index, const TiffPage& page, int64_t max_pixels) {
  const std::string what = "TIFF '" + path + "' page " + std::to_string(index + 1);
  const int64_t pixels = static_cast<int64_t>(page.width) * page.height;
  if (page.width <= 0 || page.height <= 0) throw Error(what + " has no size in its header");
  if (max_pixels > 0 && pixels > max_pixels)
    throw ImageTooLargeError(what + " is " + std::to_string(page.width) + " x " + std::to_string(page.height) + " (" +
                std::to_string(pixels / 1000000) + " megapixels), more than --max_image_pixels " +
                std::to_string(max_pixels) + ": refused before decoding; raise --max_image_pixels if it is real");
  // The file stays open between pages on this thread, so that reading
  // pages in order costs one directory step each (imreadmulti walks the
  // chain from the first page for every page: O(N) for page N).
  // The open file is reused only while `path` still names that very file
  // (a path can be rewritten, or a /proc/self/fd name reused for another).
  struct Open {
    std::string path;
    struct stat st {};
    std::unique_ptr<TiffFile> tiff;
  };
  thread_local Open open;
  struct stat now {};
  const bool same_file = open.tiff && open.path == path && ::stat(path.c_str(), &now) == 0 &&
                         now.st_dev == open.st.st_dev && now.st_ino == open.st.st_ino &&
                         now.st_size == open.st.st_size && now.st_mtim.tv_sec == open.st.st_mtim.tv_sec &&
                         now.st_mtim.tv_nsec == open.st.st_mtim.tv_nsec;
  try {
    if (!same_file || open.tiff->directory_index() > index) {
      open.tiff.reset();
      // Strips of any page within the pixel budget may be that large.
      const int64_t strips = max_pixels > 0 ? std::max<int64_t>(int64_t{64} << 20, max_pixels * 8) : INT64_MAX;
      if (::stat(path.c_str(), &open.st) != 0) throw Error(what + " cannot be read: " + std::strerror(errno));
      open.tiff = std::make_unique<TiffFile>(TiffFile::open_path(path, strips));
      open.path = path;
    }
    while (open.tiff->directory_index() < index)
      if (!open.tiff->next_directory()) throw Error(what + " does not exist: the file has fewer pages");
  } catch (...) {
    open.tiff.reset();
    throw;
  }
  std::string why;
  cv::Mat bgr;
  try {
    bgr = open.tiff->read_bgr(&why, max_pixels);
  } catch (...) {
    open.tiff.reset();
    throw;
  }
  if (bgr.empty()) {
    // A page libtiff's RGBA reader does not convert (float samples, ...):
    // OpenCV's own TIFF decoding, from the first page on.
    std::vector<cv::Mat> mats;
    bool ok = false;
    try {
      ok = cv::imreadmulti(path, mats, index, 1, cv::IMREAD_COLOR);
    } catch (const cv::Exception& e) {
      throw Error(what + " cannot be decoded: " + e.what());
    }
    if (!ok || mats.empty() || mats[0].empty())
      throw Error(what + " cannot be decoded (" + (why.empty() ? "a corrupt or unsupported TIFF page" : why) + ")");
    bgr = mats[0];
  }
  if (bgr.depth() != CV_8U) bgr.convertTo(bgr, CV_8U, bgr.depth() == CV_16U ? 1.0 / 257 : 1.0);
  if (bgr.channels() == 1) cv::cvtColor(bgr, bgr, cv::COLOR_GRAY2BGR);
  return bgr;
}

}  // namespace ocrforge
