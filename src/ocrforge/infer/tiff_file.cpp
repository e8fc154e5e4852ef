#include "ocrforge/infer/tiff_file.h"

#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

namespace {

// The most libtiff may allocate at once while reading directories: far more
// than any real directory needs, far less than a lying count asks for.
constexpr tmsize_t kMaxSingleAlloc = 64 << 20;

struct Memory {
  const char* data = nullptr;
  size_t size = 0;
  uint64_t pos = 0;
};

tmsize_t mem_read(thandle_t h, void* buf, tmsize_t n) {
  auto* m = static_cast<Memory*>(h);
  if (n <= 0 || m->pos >= m->size) return 0;
  const size_t take = std::min<uint64_t>(static_cast<uint64_t>(n), m->size - m->pos);
  std::memcpy(buf, m->data + m->pos, take);
  m->pos += take;
  return static_cast<tmsize_t>(take);
}
tmsize_t mem_write(thandle_t, void*, tmsize_t) { return 0; }
toff_t mem_seek(thandle_t h, toff_t off, int whence) {
  auto* m = static_cast<Memory*>(h);
  const uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->pos : m->size;
  m->pos = base + off;
  return m->pos;
}
int mem_close(thandle_t) { return 0; }
toff_t mem_size(thandle_t h) { return static_cast<Memory*>(h)->size; }
int mem_map(thandle_t, void**, toff_t*) { return 0; }
void mem_unmap(thandle_t, void*, toff_t) {}

}  // namespace

struct TiffFile::Impl {
  TIFF* tiff = nullptr;
  Memory memory;
  std::string message;  // libtiff's last error or warning
  std::string name;

  ~Impl() {
    if (tiff) TIFFClose(tiff);
  }

  // libtiff's messages, kept rather than printed (1: handled).
  static int keep(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    char buf[512];
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    static_cast<Impl*>(user)->message = std::string(module ? module : "libtiff") + ": " + buf;
    return 1;
  }

  TIFFOpenOptions* options(int64_t max_single_alloc = 0) {
    TIFFOpenOptions* o = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetMaxSingleMemAlloc(o, max_single_alloc > 0 ? max_single_alloc : kMaxSingleAlloc);
    TIFFOpenOptionsSetErrorHandlerExtR(o, keep, this);
    TIFFOpenOptionsSetWarningHandlerExtR(o, keep, this);
    return o;
  }
};

TiffFile::TiffFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TiffFile::TiffFile(TiffFile&&) noexcept = default;
TiffFile& TiffFile::operator=(TiffFile&&) noexcept = default;
TiffFile::~TiffFile() = default;

TiffFile TiffFile::open_path(const std::string& path, int64_t max_single_alloc) {
  auto impl = std::make_unique<Impl>();
  impl->name = "TIFF '" + path + "'";
  TIFFOpenOptions* o = impl->options(max_single_alloc);
  impl->tiff = TIFFOpenExt(path.c_str(), "rm", o);  // m: read, do not memory-map
  TIFFOpenOptionsFree(o);
  if (!impl->tiff) throw Error(impl->name + " cannot be opened: " + impl->message);
  return TiffFile(std::move(impl));
}

TiffFile TiffFile::open_memory(const char* data, size_t size) {
  auto impl = std::make_unique<Impl>();
  impl->name = "TIFF";
  impl->memory = {data, size, 0};
  TIFFOpenOptions* o = impl->options();
  impl->tiff = TIFFClientOpenExt("memory", "rm", &impl->memory, mem_read, mem_write, mem_seek, mem_close, mem_size,
                                 mem_map, mem_unmap, o);
  TIFFOpenOptionsFree(o);
  if (!impl->tiff) throw Error("not a readable TIFF: " + impl->message);
  return TiffFile(std::move(impl));
}

TiffDirectory TiffFile::directory() const {
  TiffDirectory d;
  uint32_t w = 0, h = 0;
  if (TIFFGetField(impl_->tiff, TIFFTAG_IMAGEWIDTH, &w)) d.width = w;
  if (TIFFGetField(impl_->tiff, TIFFTAG_IMAGELENGTH, &h)) d.height = h;
  float xres = 0, yres = 0;
  uint16_t unit = RESUNIT_INCH;
  TIFFGetFieldDefaulted(impl_->tiff, TIFFTAG_RESOLUTIONUNIT, &unit);
  const double per_inch = unit == RESUNIT_CENTIMETER ? 2.54 : unit == RESUNIT_INCH ? 1.0 : 0.0;
  if (TIFFGetField(impl_->tiff, TIFFTAG_XRESOLUTION, &xres)) d.dpi_x = xres * per_inch;
  if (TIFFGetField(impl_->tiff, TIFFTAG_YRESOLUTION, &yres)) d.dpi_y = yres * per_inch;
  return d;
}

bool TiffFile::next_directory() {
  if (TIFFLastDirectory(impl_->tiff)) return false;  // the chain ends here
  impl_->message.clear();
  if (TIFFReadDirectory(impl_->tiff)) return true;
  // There was a next directory and libtiff could not read it (cut short, or
  // a chain that loops back, which libtiff refuses).
  throw Error(impl_->name + " is damaged: " + (impl_->message.empty() ? "an unreadable directory" : impl_->message));
}

std::string TiffFile::last_message() const { return impl_->message; }

int TiffFile::directory_index() const { return static_cast<int>(TIFFCurrentDirectory(impl_->tiff)); }

void TiffFile::set_directory(int index) {
  impl_->message.clear();
  if (index < 0 || !TIFFSetDirectory(impl_->tiff, static_cast<tdir_t>(index)))
    throw Error(impl_->name + " has no page " + std::to_string(index + 1) +
                (impl_->message.empty() ? "" : " (" + impl_->message + ")"));
}

cv::Mat TiffFile::read_bgr(std::string* why, int64_t max_pixels) {
  TIFF* t = impl_->tiff;
  char emsg[1024] = {0};
  if (!TIFFRGBAImageOK(t, emsg)) {
    *why = emsg;
    return cv::Mat();
  }
  uint32_t w = 0, h = 0;
  TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &w);
  TIFFGetField(t, TIFFTAG_IMAGELENGTH, &h);
  if (w == 0 || h == 0 || w > static_cast<uint32_t>(INT32_MAX) || h > static_cast<uint32_t>(INT32_MAX))
    throw Error(impl_->name + " page " + std::to_string(directory_index() + 1) + " has no usable size");
  // Checked again here, on the directory being decoded: the one allocation
  // below is W x H x 4 bytes.
  if (max_pixels > 0 && static_cast<int64_t>(w) * h > max_pixels)
    throw ImageTooLargeError(impl_->name + " page " + std::to_string(directory_index() + 1) + " is " + std::to_string(w) + " x " +
                std::to_string(h) + ", more than --max_image_pixels " + std::to_string(max_pixels));
  // ABGR words, top row first (the caller checked the pixel budget).
  cv::Mat rgba(static_cast<int>(h), static_cast<int>(w), CV_8UC4);
  impl_->message.clear();
  if (!TIFFReadRGBAImageOriented(t, w, h, reinterpret_cast<uint32_t*>(rgba.data), ORIENTATION_TOPLEFT, 0))
    throw Error(impl_->name + " page " + std::to_string(directory_index() + 1) + " cannot be decoded" +
                (impl_->message.empty() ? "" : ": " + impl_->message));
  // Each word is R | G << 8 | B << 16 | A << 24: bytes R, G, B, A in memory.
  cv::Mat bgr;
  cv::cvtColor(rgba, bgr, cv::COLOR_RGBA2BGR);
  return bgr;
}

}  // namespace ocrforge
