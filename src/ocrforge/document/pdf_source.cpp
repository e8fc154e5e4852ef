#include "ocrforge/document/pdf_source.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <fstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <qpdf/QPDF.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include "ocrforge/core/child_process.h"
#include "ocrforge/core/error.h"
#include "ocrforge/infer/image_header.h"

namespace ocrforge {

namespace {

// A qpdf pipeline end that keeps at most `limit` bytes and notes (rather
// than stores) anything past them; the decode then stops early.
class BoundedBuffer : public Pipeline {
 public:
  explicit BoundedBuffer(size_t limit) : Pipeline("bounded buffer", nullptr), limit_(limit) {}
  void write(unsigned char const* data, size_t len) override {
    if (over_ || len > limit_ - bytes_.size()) {
      over_ = true;
      throw std::length_error("the stream inflates past the size its dictionary gives");
    }
    bytes_.append(reinterpret_cast<const char*>(data), len);
  }
  void finish() override {}
  bool over() const { return over_; }
  std::string& bytes() { return bytes_; }

 private:
  size_t limit_;
  std::string bytes_;
  bool over_ = false;
};

}  // namespace

struct PdfSource::State {
  QPDF pdf;
  std::vector<QPDFPageObjectHelper> pages;
};

namespace {

// pdftoppm's stderr: its last three non-empty lines, joined.
std::string last_lines(const std::string& err) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < err.size()) {
    size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    if (end > start) lines.push_back(err.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  for (size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i) out += (out.empty() ? "" : "; ") + lines[i];
  return out.empty() ? "no message" : out;
}

// A binary PPM (P6) as printed by pdftoppm -> BGR.
cv::Mat parse_ppm(const std::string& data) {
  size_t i = 0;
  const auto token = [&]() {
    while (i < data.size() && (std::isspace(static_cast<unsigned char>(data[i])) || data[i] == '#')) {
      if (data[i] == '#')
        while (i < data.size() && data[i] != '\n') ++i;
      else
        ++i;
    }
    const size_t start = i;
    while (i < data.size() && !std::isspace(static_cast<unsigned char>(data[i]))) ++i;
    return data.substr(start, i - start);
  };
  if (token() != "P6") return {};
  const std::string w = token(), h = token(), maxval = token();
  ++i;  // the single white space before the pixels
  if (w.empty() || h.empty() || maxval != "255") return {};
  const int cols = std::stoi(w), rows = std::stoi(h);
  if (cols <= 0 || rows <= 0 || data.size() - i < static_cast<size_t>(cols) * rows * 3) return {};
  cv::Mat rgb(rows, cols, CV_8UC3, const_cast<char*>(data.data() + i));
  cv::Mat bgr;
  cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
  return bgr;
}

}  // namespace

bool looks_like_pdf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.find("%PDF-") != std::string::npos;
}

PdfSource::PdfSource(const std::string& path) : path_(path), s_(std::make_unique<State>()) {
  QPDF& pdf = s_->pdf;
  pdf.setSuppressWarnings(true);
  try {
    pdf.processFile(path.c_str());
  } catch (const QPDFExc& e) {
    if (e.getErrorCode() == qpdf_e_password)
      throw Error("PDF '" + path + "' is encrypted with a password: decrypt it first (qpdf --password=PASSWORD "
                  "--decrypt in.pdf out.pdf) and read the decrypted file");
    throw Error("PDF '" + path + "' cannot be read (" + e.getMessageDetail() +
                "): the file is damaged beyond repair or not a PDF");
  } catch (const std::exception& e) {
    throw Error("PDF '" + path + "' cannot be read (" + e.what() + ")");
  }
  if (pdf.isEncrypted())
    throw Error("PDF '" + path + "' is encrypted: ocrforge does not read or rewrite encrypted PDFs (as OCRmyPDF "
                "does not); remove the encryption first (qpdf --decrypt in.pdf out.pdf)");
  try {
    s_->pages = QPDFPageDocumentHelper(pdf).getAllPages();
  } catch (const std::exception& e) {
    throw Error("PDF '" + path + "': its page tree cannot be read (" + e.what() + ")");
  }
  for (const QPDFExc& w : pdf.getWarnings()) {
    if (warnings_.size() == 5) {
      warnings_.push_back("(more repairs not listed)");
      break;
    }
    warnings_.push_back(w.getMessageDetail());
  }
  if (s_->pages.empty()) {
    if (!warnings_.empty())
      throw Error("PDF '" + path + "' is damaged (" + warnings_.at(std::min<size_t>(1, warnings_.size() - 1)) +
                  ") and qpdf's repair found no page in it: the file is cut short or broken");
    throw Error("PDF '" + path + "' has no pages");
  }
}

PdfSource::~PdfSource() = default;

int PdfSource::page_count() const { return static_cast<int>(s_->pages.size()); }

PdfPageShape PdfSource::shape(int index) {
  QPDFPageObjectHelper& page = s_->pages.at(static_cast<size_t>(index));
  PdfPageShape shape;
  double w = 0, h = 0;
  try {
    const auto box = page.getCropBox(false, false).getArrayAsRectangle();
    w = std::abs(box.urx - box.llx);
    h = std::abs(box.ury - box.lly);
    auto rotate = page.getAttribute("/Rotate", false);
    const int r = rotate.isInteger() ? static_cast<int>(((rotate.getIntValue() % 360) + 360) % 360) : 0;
    shape.width_pt = r % 180 ? h : w;
    shape.height_pt = r % 180 ? w : h;
    const auto images = page.getPageImages();
    if (images.size() == 1 && w > 0 && h > 0) {
      QPDFObjectHandle image = images.begin()->second;
      QPDFObjectHandle dict = image.getDict();
      QPDFObjectHandle iw = dict.getKey("/Width"), ih = dict.getKey("/Height");
      if (iw.isInteger() && ih.isInteger())
        shape.scan_dpi = std::max(iw.getIntValue() * 72.0 / w, ih.getIntValue() * 72.0 / h);
    }
  } catch (const std::exception& e) {
    throw Error("PDF '" + path_ + "' page " + std::to_string(index + 1) + ": cannot read its size (" + e.what() + ")");
  }
  if (!(shape.width_pt > 0 && shape.height_pt > 0))
    throw Error("PDF '" + path_ + "' page " + std::to_string(index + 1) + " has no size (an empty MediaBox)");
  return shape;
}

cv::Mat PdfSource::scan_image(int index, int64_t max_pixels) {
  QPDFPageObjectHelper& page = s_->pages.at(static_cast<size_t>(index));
  try {
    auto rotate = page.getAttribute("/Rotate", false);
    if (rotate.isInteger() && rotate.getIntValue() % 360 != 0) return {};
    const auto images = page.getPageImages();
    if (images.size() != 1) return {};
    QPDFObjectHandle image = images.begin()->second;
    QPDFObjectHandle dict = image.getDict();
    for (const char* key : {"/SMask", "/Mask", "/Decode"})
      if (dict.hasKey(key)) return {};
    QPDFObjectHandle mask = dict.getKey("/ImageMask");
    if (mask.isBool() && mask.getBoolValue()) return {};
    QPDFObjectHandle bpc = dict.getKey("/BitsPerComponent"), w = dict.getKey("/Width"), h = dict.getKey("/Height");
    if (!bpc.isInteger() || bpc.getIntValue() != 8 || !w.isInteger() || !h.isInteger()) return {};
    const long long width = w.getIntValue(), height = h.getIntValue();
    if (width <= 0 || height <= 0) return {};
    // Grey or RGB: the device spaces, or an ICC profile with 1 or 3 components.
    int components = 0;
    QPDFObjectHandle cs = dict.getKey("/ColorSpace");
    if (cs.isName()) {
      components = cs.getName() == "/DeviceGray" ? 1 : cs.getName() == "/DeviceRGB" ? 3 : 0;
    } else if (cs.isArray() && cs.getArrayNItems() == 2 && cs.getArrayItem(0).isName() &&
               cs.getArrayItem(0).getName() == "/ICCBased" && cs.getArrayItem(1).isStream()) {
      QPDFObjectHandle n = cs.getArrayItem(1).getDict().getKey("/N");
      components = n.isInteger() && (n.getIntValue() == 1 || n.getIntValue() == 3) ? static_cast<int>(n.getIntValue()) : 0;
    }
    if (components == 0) return {};
    // The image must have the page's shape (it fills the page).
    const auto box = page.getCropBox(false, false).getArrayAsRectangle();
    const double pw = std::abs(box.urx - box.llx), ph = std::abs(box.ury - box.lly);
    if (pw <= 0 || ph <= 0 || std::abs(width / pw - height / ph) > 0.01 * std::max(width / pw, height / ph)) return {};
    if (max_pixels > 0 && width * height > max_pixels)
      throw ImageTooLargeError("PDF '" + path_ + "' page " + std::to_string(index + 1) + ": its scan is " + std::to_string(width) +
                  " x " + std::to_string(height) + " pixels, more than --max_image_pixels " +
                  std::to_string(max_pixels) + ": raise --max_image_pixels or render it smaller with --pdf_dpi");
    QPDFObjectHandle filter = dict.getKey("/Filter");
    if (filter.isArray() && filter.getArrayNItems() == 1) filter = filter.getArrayItem(0);
    cv::Mat bgr;
    if (filter.isName() && filter.getName() == "/DCTDecode") {
      auto raw = image.getRawStreamData();
      const std::string jpeg(reinterpret_cast<const char*>(raw->getBuffer()), raw->getSize());
      // The JPEG's own header decides what the decoder allocates; one that
      // disagrees with the dictionary is not this page's scan.
      const ImageHeader header = read_image_header(jpeg.data(), jpeg.size());
      if (!header.error.empty() || header.width != width || header.height != height) return {};
      const cv::Mat bytes(1, static_cast<int>(jpeg.size()), CV_8U, const_cast<char*>(jpeg.data()));
      // A JPEG inside a PDF is shown as stored: its EXIF orientation is not applied.
      bgr = cv::imdecode(bytes, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
    } else {
      // Inflated into a buffer that stops at the size the dictionary gives:
      // a stream that says 100 x 100 and inflates to 600 MB is cut there.
      if (width * height > INT32_MAX / 3) return {};
      const size_t expected = static_cast<size_t>(width * height * components);
      BoundedBuffer data(expected);
      const bool ok = image.pipeStreamData(&data, 0, qpdf_dl_generalized, true);
      if (!ok || data.over() || data.bytes().size() != expected) return {};
      const cv::Mat pixels(static_cast<int>(height), static_cast<int>(width), components == 1 ? CV_8UC1 : CV_8UC3,
                           data.bytes().data());
      cv::cvtColor(pixels, bgr, components == 1 ? cv::COLOR_GRAY2BGR : cv::COLOR_RGB2BGR);
    }
    if (bgr.cols != width || bgr.rows != height) return {};
    return bgr;
  } catch (const Error&) {
    throw;
  } catch (const std::exception&) {
    return {};  // not decodable here (CCITT, JBIG2, JPX, a damaged stream): render the page
  }
}

cv::Mat PdfSource::render(int index, double dpi, int64_t max_pixels) {
  const PdfPageShape s = shape(index);
  const double px = std::ceil(s.width_pt * dpi / 72.0) * std::ceil(s.height_pt * dpi / 72.0);
  const std::string page = "PDF '" + path_ + "' page " + std::to_string(index + 1);
  if (max_pixels > 0 && px > static_cast<double>(max_pixels))
    throw ImageTooLargeError(page + " would render to " + std::to_string(static_cast<long long>(px / 1e6)) + " megapixels at " +
                std::to_string(static_cast<int>(dpi)) + " dpi, more than --max_image_pixels " +
                std::to_string(max_pixels) + ": lower --pdf_dpi or raise --max_image_pixels");
  char res[32];
  std::snprintf(res, sizeof(res), "%.6g", dpi);
  const std::string n = std::to_string(index + 1);
  const ChildResult r = run_child({"pdftoppm", "-r", res, "-f", n, "-l", n, "-cropbox", path_},
                                  "install poppler-utils (scripts/bootstrap.sh does)",
                                  static_cast<size_t>(px * 3 * 1.05) + (1 << 20));
  if (r.exit_code != 0)
    throw Error(page + " cannot be rendered: pdftoppm exited with " + std::to_string(r.exit_code) + " (" +
                last_lines(r.err) + ")");
  cv::Mat bgr = parse_ppm(r.out);
  if (bgr.empty()) throw Error(page + " cannot be rendered: pdftoppm printed no image (" + last_lines(r.err) + ")");
  return bgr;
}

}  // namespace ocrforge
