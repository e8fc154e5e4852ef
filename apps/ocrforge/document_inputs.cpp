#include "document_inputs.h"

#include <cstdio>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/document/image_resolution.h"

namespace ocrforge {

namespace {

constexpr double kFallbackDpi = 300.0;

bool has_ext(const std::string& path, const std::string& ext) { return ends_with(to_lower(path), ext); }

}  // namespace

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

void DocumentInputs::add_pdf(const std::string& file, std::vector<InputItem>& out) {
  PdfSource pdf(file);
  for (const std::string& w : pdf.warnings())
    std::fprintf(stderr, "ocrforge ocr: warning: PDF '%s' is damaged, qpdf repaired it: %s\n", file.c_str(), w.c_str());
  const std::vector<int> pages = selected(pdf.page_count(), file);
  for (int page : pages) {
    InputItem it;
    it.file = file;
    it.kind = InputItem::Kind::pdf_page;
    it.page = page;
    it.single = pdf.page_count() == 1;
    it.key = it.single ? file : "'" + file + "' page " + std::to_string(page + 1);
    it.dpi = p_.pdf_dpi;
    out.push_back(it);
  }
}

void DocumentInputs::add_tiff(const std::string& file, std::vector<InputItem>& out) {
  // One IFD more than the cap, so that "more than --max_pages" is seen
  // without walking a 100,000-page chain.
  const int cap = p_.max_pages > 0 ? p_.max_pages : 1 << 20;
  const int walked = p_.pages.all() && p_.page_num == 0 ? cap : 1 << 20;
  const std::vector<TiffPage> tiff = tiff_pages(file, walked);
  const std::vector<int> pages = selected(static_cast<int>(tiff.size()), file, static_cast<int>(tiff.size()) <= walked);
  for (int page : pages) {
    InputItem it;
    it.file = file;
    it.kind = InputItem::Kind::tiff_page;
    it.page = page;
    it.tiff = tiff[static_cast<size_t>(page)];
    it.single = tiff.size() == 1;
    it.key = it.single ? file : "'" + file + "' page " + std::to_string(page + 1);
    it.dpi = p_.image_dpi > 0 ? p_.image_dpi : it.tiff.dpi_x > 0 ? it.tiff.dpi_x : kFallbackDpi;
    out.push_back(it);
  }
}

std::vector<InputItem> DocumentInputs::expand(const std::vector<std::string>& files, const char* command) {
  std::vector<InputItem> out;
  for (const std::string& file : files) {
    try {
      if (has_ext(file, ".pdf") || looks_like_pdf(file)) {
        add_pdf(file, out);
      } else if (looks_like_tiff(file)) {
        add_tiff(file, out);
      } else {
        InputItem it;
        it.key = it.file = file;
        const Resolution r = p_.image_dpi > 0 ? Resolution{p_.image_dpi, p_.image_dpi} : image_resolution(file);
        it.dpi = r.x > 0 ? r.x : kFallbackDpi;
        out.push_back(it);
      }
    } catch (const std::exception& e) {
      ++failed_;
      const std::string what = e.what();
      std::fprintf(stderr, "ocrforge %s: error: %s (skipped)\n", command,
                   what.find(file) != std::string::npos ? what.c_str() : ("'" + file + "': " + what).c_str());
    }
  }
  for (const auto& it : out) items_[it.key] = it;
  return out;
}

LoadedImage DocumentInputs::decode(const std::string& key) {
  const InputItem& it = items_.at(key);
  if (it.kind == InputItem::Kind::image) return read_image(it.file, p_.read.max_side, p_.read.max_pixels);
  LoadedImage img;
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
