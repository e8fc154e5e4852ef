#include "ocrforge/document/tiff_pages.h"

#include <fstream>
#include <set>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

class TiffReader {
 public:
  explicit TiffReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw Error("TIFF '" + path + "' cannot be opened");
    char sig[4];
    if (!in_.read(sig, 4)) throw Error("TIFF '" + path + "' is too short to be a TIFF");
    if (sig[0] == 'I' && sig[1] == 'I') little_ = true;
    else if (sig[0] == 'M' && sig[1] == 'M') little_ = false;
    else throw Error("'" + path + "' is not a TIFF file");
    const uint32_t version = u16_at(2);
    if (version == 43) {
      big_ = true;
      first_ = u64_at(8);
    } else if (version == 42) {
      first_ = u32_at(4);
    } else {
      throw Error("'" + path + "' is not a TIFF file (version " + std::to_string(version) + ")");
    }
  }

  uint64_t first_ifd() const { return first_; }

  // Reads the IFD at `at` into `page`; returns the next IFD's offset.
  uint64_t ifd(uint64_t at, TiffPage& page) {
    const uint64_t count = big_ ? u64_at(at) : u16_at(at);
    if (count > 4096) fail("an IFD with " + std::to_string(count) + " entries");
    const uint64_t entry_size = big_ ? 20 : 12, first = at + (big_ ? 8 : 2);
    uint32_t res_unit = 2;
    double xres = 0, yres = 0;
    for (uint64_t e = 0; e < count; ++e) {
      const uint64_t p = first + e * entry_size;
      const uint32_t tag = u16_at(p), type = u16_at(p + 2);
      const uint64_t value_at = p + (big_ ? 12 : 8);
      const auto scalar = [&]() -> uint64_t {
        return type == 3 ? u16_at(value_at) : type == 16 ? u64_at(value_at) : u32_at(value_at);
      };
      const auto rational = [&]() -> double {
        const uint64_t off = big_ ? u64_at(value_at) : u32_at(value_at);
        const double den = u32_at(off + 4);
        return den > 0 ? u32_at(off) / den : 0.0;
      };
      if (tag == 256) page.width = static_cast<int>(std::min<uint64_t>(scalar(), INT32_MAX));
      else if (tag == 257) page.height = static_cast<int>(std::min<uint64_t>(scalar(), INT32_MAX));
      else if (tag == 282 && type == 5) xres = rational();
      else if (tag == 283 && type == 5) yres = rational();
      else if (tag == 296) res_unit = static_cast<uint32_t>(scalar());
    }
    const double per_inch = res_unit == 3 ? 2.54 : res_unit == 2 ? 1.0 : 0.0;
    page.dpi_x = xres * per_inch;
    page.dpi_y = yres * per_inch;
    return big_ ? u64_at(first + count * entry_size) : u32_at(first + count * entry_size);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("TIFF '" + path_ + "' is damaged: " + what);
  }

 private:
  void read_at(uint64_t at, unsigned char* buf, size_t n) {
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(at));
    if (!in_.read(reinterpret_cast<char*>(buf), static_cast<std::streamsize>(n)))
      fail("an offset (" + std::to_string(at) + ") points past the end of the file");
  }
  uint64_t uint_at(uint64_t at, size_t n) {
    unsigned char b[8];
    read_at(at, b, n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(b[little_ ? i : n - 1 - i]) << (8 * i);
    return v;
  }
  uint32_t u16_at(uint64_t at) { return static_cast<uint32_t>(uint_at(at, 2)); }
  uint32_t u32_at(uint64_t at) { return static_cast<uint32_t>(uint_at(at, 4)); }
  uint64_t u64_at(uint64_t at) { return uint_at(at, 8); }

  std::string path_;
  std::ifstream in_;
  bool little_ = true, big_ = false;
  uint64_t first_ = 0;
};

}  // namespace

bool looks_like_tiff(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char s[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(s), 4);
  if (in.gcount() != 4) return false;
  return (s[0] == 'I' && s[1] == 'I' && (s[2] == 42 || s[2] == 43) && s[3] == 0) ||
         (s[0] == 'M' && s[1] == 'M' && s[2] == 0 && (s[3] == 42 || s[3] == 43));
}

std::vector<TiffPage> tiff_pages(const std::string& path, int max_pages) {
  TiffReader reader(path);
  std::vector<TiffPage> pages;
  std::set<uint64_t> seen;
  for (uint64_t at = reader.first_ifd(); at != 0 && static_cast<int>(pages.size()) <= max_pages;) {
    if (!seen.insert(at).second) reader.fail("its IFD chain loops");
    TiffPage page;
    at = reader.ifd(at, page);
    pages.push_back(page);
  }
  if (pages.empty()) reader.fail("it has no IFD (no page)");
  return pages;
}

cv::Mat read_tiff_page(const std::string& path, int index, const TiffPage& page, int64_t max_pixels) {
  const std::string what = "TIFF '" + path + "' page " + std::to_string(index + 1);
  const int64_t pixels = static_cast<int64_t>(page.width) * page.height;
  if (page.width <= 0 || page.height <= 0) throw Error(what + " has no size in its header");
  if (max_pixels > 0 && pixels > max_pixels)
    throw Error(what + " is " + std::to_string(page.width) + " x " + std::to_string(page.height) + " (" +
                std::to_string(pixels / 1000000) + " megapixels), more than --max_image_pixels " +
                std::to_string(max_pixels) + ": refused before decoding; raise --max_image_pixels if it is real");
  std::vector<cv::Mat> mats;
  bool ok = false;
  try {
    ok = cv::imreadmulti(path, mats, index, 1, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    throw Error(what + " cannot be decoded: " + e.what());
  }
  if (!ok || mats.empty() || mats[0].empty()) throw Error(what + " cannot be decoded (a corrupt or unsupported TIFF page)");
  cv::Mat bgr = mats[0];
  if (bgr.depth() != CV_8U) bgr.convertTo(bgr, CV_8U, bgr.depth() == CV_16U ? 1.0 / 257 : 1.0);
  if (bgr.channels() == 1) cv::cvtColor(bgr, bgr, cv::COLOR_GRAY2BGR);
  return bgr;
}

}  // namespace ocrforge
