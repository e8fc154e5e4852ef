#include "ocrforge/document/document_inputs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/document/image_resolution.h"

namespace ocrforge {

namespace {

constexpr double kFallbackDpi = 300.0;

bool has_ext(const std::string& path, const std::string& ext) { return ends_with(to_lower(path), ext); }

// Writes `bytes` to a new file only this user can read, in $TMPDIR (or /tmp).
std::string spool(const std::string& bytes, const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/ocrforge-document-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw Error("cannot hold " + name + " in a temporary file (" + path + "): " + std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(path.c_str());
      throw Error("cannot hold " + name + " in a temporary file (" + path + "): " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return path;
}

// A message about the spooled copy, naming what it stands for instead.
std::string renamed(std::string what, const std::string& path, const std::string& name) {
  for (size_t at = what.find(path); at != std::string::npos; at = what.find(path, at + name.size()))
    what.replace(at, path.size(), name);
  return what;
}

}  // namespace

bool bytes_look_like_pdf(const std::string& b) { return b.find("%PDF-") < 1024; }

bool bytes_look_like_tiff(const std::string& b) {
  return b.size() >= 4 && ((b[0] == 'I' && b[1] == 'I' && (b[2] == 42 || b[2] == 43) && b[3] == 0) ||
                           (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && (b[3] == 42 || b[3] == 43)));
}

void declare_document_read_flags(FlagSet& f) {
  f.add("pdf_dpi", "300",
        "resolution PDF pages are rendered at (0: a scanned page's own image, taken out unrendered when it can be, "
        "else rendered at its resolution; 300 for pages that are no scan)");
  f.add("pages", "", "pages of each PDF / multi-page TIFF to read, e.g. 1-3,7 or 5- (default: all)");
  f.add("page_num", "0", "PaddleOCR's page_num: read only the first N (selected) pages of each document; 0 = all");
  f.add("max_pages", "1000", "refuse a document with more pages to read than this (0 = no cap)");
  f.add("image_dpi", "0", "resolution of image inputs for the pdf / hocr outputs (0: the file's own, else 300)");
}

DocumentReadParams document_read_params_from_flags(const FlagSet& flags) {
  DocumentReadParams d;
  d.read = image_read_params_from_flags(flags);
  d.pages = PageSelection::parse(flags.get("pages"));
  d.page_num = flags.get_int("page_num");
  d.max_pages = flags.get_int("max_pages");
  d.pdf_dpi = flags.get_double("pdf_dpi");
  d.image_dpi = flags.get_double("image_dpi");
  if (d.page_num < 0) throw UsageError("--page_num must be >= 0 (0 = all pages), got " + flags.get("page_num"));
  if (d.max_pages < 0) throw UsageError("--max_pages must be >= 0 (0 = no cap), got " + flags.get("max_pages"));
  if (!(d.pdf_dpi == 0 || (d.pdf_dpi >= 10 && d.pdf_dpi <= 2400)))
    throw UsageError("--pdf_dpi must be 0 (each page's scan resolution) or in [10, 2400], got " + flags.get("pdf_dpi"));
  if (!(d.image_dpi == 0 || (d.image_dpi >= 10 && d.image_dpi <= 2400)))
    throw UsageError("--image_dpi must be 0 (the file's own) or in [10, 2400], got " + flags.get("image_dpi"));
  return d;
}

DocumentInputs::~DocumentInputs() {
  open_pdf_.reset();
  for (const auto& spooled : spooled_) ::unlink(spooled.first.c_str());
}

std::vector<int> DocumentInputs::selected(int count, const std::string& file, bool counted_in_full) const {
  std::vector<int> pages = p_.pages.pages_of(count);
  if (p_.page_num > 0 && static_cast<int>(pages.size()) > p_.page_num) pages.resize(static_cast<size_t>(p_.page_num));
  if (pages.empty())
    throw Error("'" + file + "' has " + std::to_string(count) + " pages, none of them selected by --pages");
  if (p_.max_pages > 0 && static_cast<int>(pages.size()) > p_.max_pages)
    // A TIFF's directories are read one past the cap only: its count is not known.
    throw Error("'" + file + "' has " +
                (counted_in_full ? std::to_string(pages.size()) + " pages to read, more than"
                                 : std::string("more pages to read than")) +
                " --max_pages " +
                std::to_string(p_.max_pages) + ": choose some with --pages (e.g. --pages 1-100) or raise --max_pages");
  return pages;
}

void DocumentInputs::add_pdf(const std::string& file, const std::string& name, std::vector<InputItem>& out) {
  PdfSource pdf(file);
  for (const std::string& w : pdf.warnings())
    warnings_.push_back("PDF '" + name + "' is damaged, qpdf repaired it: " + w);
  const std::vector<int> pages = selected(pdf.page_count(), name);
  for (int page : pages) {
    InputItem it;
    it.file = file;
    it.kind = InputItem::Kind::pdf_page;
    it.page = page;
    it.single = pdf.page_count() == 1;
    it.key = it.single ? name : "'" + name + "' page " + std::to_string(page + 1);
    it.dpi = p_.pdf_dpi;
    out.push_back(it);
  }
}

void DocumentInputs::add_tiff(const std::string& file, const std::string& name, std::vector<InputItem>& out) {
  // One IFD more than the cap, so that "more than --max_pages" is seen
  // without walking a 100,000-page chain.
  const int cap = p_.max_pages > 0 ? p_.max_pages : 1 << 20;
  // A selection (--pages) needs the count; the first page_num pages need no more.
  const int walked = !p_.pages.all() ? 1 << 20 : p_.page_num > 0 ? std::min(cap, p_.page_num) : cap;
  const std::vector<TiffPage> tiff = tiff_pages(file, walked);
  const std::vector<int> pages = selected(static_cast<int>(tiff.size()), name, static_cast<int>(tiff.size()) <= walked);
  for (int page : pages) {
    InputItem it;
    it.file = file;
    it.kind = InputItem::Kind::tiff_page;
    it.page = page;
    it.tiff = tiff[static_cast<size_t>(page)];
    it.single = tiff.size() == 1;
    it.key = it.single ? name : "'" + name + "' page " + std::to_string(page + 1);
    it.dpi = p_.image_dpi > 0 ? p_.image_dpi : it.tiff.dpi_x > 0 ? it.tiff.dpi_x : kFallbackDpi;
    out.push_back(it);
  }
}

std::vector<InputItem> DocumentInputs::items_of(const std::string& file, const std::string& name) {
  std::vector<InputItem> out;
  if (has_ext(name, ".pdf") || looks_like_pdf(file)) {
    add_pdf(file, name, out);
  } else if (looks_like_tiff(file)) {
    add_tiff(file, name, out);
  } else {
    InputItem it;
    it.key = name;
    it.file = file;
    const Resolution r = p_.image_dpi > 0 ? Resolution{p_.image_dpi, p_.image_dpi} : image_resolution(file);
    it.dpi = r.x > 0 ? r.x : kFallbackDpi;
    out.push_back(it);
  }
  return out;
}

void DocumentInputs::remember(const std::vector<InputItem>& items) {
  for (const auto& it : items) items_[it.key] = it;
}

std::vector<InputItem> DocumentInputs::expand(const std::vector<std::string>& files, const char* command) {
  std::vector<InputItem> out;
  for (const std::string& file : files) {
    try {
      const std::vector<InputItem> items = items_of(file, file);
      out.insert(out.end(), items.begin(), items.end());
      for (const std::string& w : take_warnings()) std::fprintf(stderr, "ocrforge %s: warning: %s\n", command, w.c_str());
    } catch (const std::exception& e) {
      ++failed_;
      const std::string what = e.what();
      std::fprintf(stderr, "ocrforge %s: error: %s (skipped)\n", command,
                   what.find(file) != std::string::npos ? what.c_str() : ("'" + file + "': " + what).c_str());
    }
  }
  remember(out);
  return out;
}

std::vector<InputItem> DocumentInputs::expand_file(const std::string& file) {
  std::vector<InputItem> items;
  try {
    items = items_of(file, file);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.find(file) != std::string::npos) throw;
    throw Error("'" + file + "': " + what);
  }
  remember(items);
  return items;
}

std::vector<InputItem> DocumentInputs::expand_bytes(const std::string& name, std::string bytes) {
  if (bytes.empty()) throw Error(name + " is empty");
  std::vector<InputItem> items;
  if (bytes_look_like_pdf(bytes) || bytes_look_like_tiff(bytes)) {
    const std::string path = spool(bytes, name);
    spooled_[path] = name;
    bytes.clear();
    bytes.shrink_to_fit();
    try {
      items = items_of(path, name);
    } catch (const ImageTooLargeError& e) {
      throw ImageTooLargeError(renamed(e.what(), path, name));
    } catch (const Error& e) {
      throw Error(renamed(e.what(), path, name));
    }
  } else {
    InputItem it;
    it.key = it.file = name;
    it.kind = InputItem::Kind::image_bytes;
    check_image_budget(bytes, name, p_.read.max_pixels);  // refused now, before it waits in a queue
    it.dpi = p_.image_dpi > 0 ? p_.image_dpi : kFallbackDpi;
    it.bytes = std::make_shared<const std::string>(std::move(bytes));
    items.push_back(std::move(it));
  }
  remember(items);
  return items;
}

InputItem DocumentInputs::add_array(const std::string& name, const cv::Mat& page) {
  if (page.empty() || page.depth() != CV_8U || (page.channels() != 1 && page.channels() != 3 && page.channels() != 4))
    throw Error(name + ": expected an 8-bit image with 1, 3 or 4 channels");
  if (p_.read.max_pixels > 0 && static_cast<int64_t>(page.total()) > p_.read.max_pixels)
    throw Error(name + " has " + std::to_string(page.total()) + " pixels, more than the budget of " +
                std::to_string(p_.read.max_pixels));
  InputItem it;
  it.key = it.file = name;
  it.kind = InputItem::Kind::array;
  it.dpi = p_.image_dpi > 0 ? p_.image_dpi : kFallbackDpi;
  if (page.channels() == 1) cv::cvtColor(page, it.array, cv::COLOR_GRAY2BGR);
  else if (page.channels() == 4) cv::cvtColor(page, it.array, cv::COLOR_BGRA2BGR);
  else it.array = page;
  remember({it});
  return it;
}

LoadedImage DocumentInputs::decode(const std::string& key) {
  const InputItem& it = items_.at(key);
  const auto spooled = spooled_.find(it.file);
  if (spooled == spooled_.end()) return decode_page(it, key);
  try {
    return decode_page(it, key);
  } catch (const ImageTooLargeError& e) {
    throw ImageTooLargeError(renamed(e.what(), spooled->first, spooled->second));
  } catch (const Error& e) {
    throw Error(renamed(e.what(), spooled->first, spooled->second));
  }
}

LoadedImage DocumentInputs::decode_page(const InputItem& it, const std::string& key) {
  if (it.kind == InputItem::Kind::image) return read_image(it.file, p_.read.max_side, p_.read.max_pixels);
  if (it.kind == InputItem::Kind::image_bytes) return decode_image(*it.bytes, it.key, p_.read.max_side, p_.read.max_pixels);
  LoadedImage img;
  if (it.kind == InputItem::Kind::array) {
    img.bgr = it.array;
    img.original = img.bgr.size();
    return img;
  }
  if (it.kind == InputItem::Kind::tiff_page) {
    img.bgr = read_tiff_page(it.file, it.page, it.tiff, p_.read.max_pixels);
  } else {
    if (!open_pdf_ || open_pdf_->path() != it.file) {
      open_pdf_.reset();  // one document open at a time
      open_pdf_ = std::make_unique<PdfSource>(it.file);
    }
    double dpi = it.dpi;
    if (dpi <= 0) {
      // --pdf_dpi 0: the page's own scan, taken out of the PDF unrendered
      // when it can be, else rendered at the scan's resolution.
      const double scan = open_pdf_->shape(it.page).scan_dpi;
      dpi = scan >= 50 && scan <= 1200 ? scan : kFallbackDpi;
      img.bgr = open_pdf_->scan_image(it.page, p_.read.max_pixels);
    }
    if (img.bgr.empty()) img.bgr = open_pdf_->render(it.page, dpi, p_.read.max_pixels);
    std::lock_guard<std::mutex> lock(mutex_);
    decoded_dpi_[key] = dpi;
  }
  img.original = img.bgr.size();
  img.scale = 1.f;
  return img;
}

double DocumentInputs::dpi_of(const std::string& key) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = decoded_dpi_.find(key);
    if (it != decoded_dpi_.end()) return it->second;
  }
  const double dpi = items_.at(key).dpi;
  return dpi > 0 ? dpi : kFallbackDpi;
}

}  // namespace ocrforge
