#include "ocrforge/document/pdf_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <qpdf/Pipeline.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include "ocrforge/core/error.h"
#include "ocrforge/document/glyphless_font.h"
#include "ocrforge/version.h"

namespace fs = std::filesystem;

namespace ocrforge {

namespace {

// The font's resource name on pages added to an existing PDF: one that page
// content is unlikely to use already.
const char* kFontResource = "/OcrforgeGlyphless";
// On new pages: Tesseract's name for its glyphless font, which OCRmyPDF
// looks for when it grafts a text-only page onto its output.
const char* kNewPageFontResource = "/f-0-0";

// The ToUnicode map of the font: each two-byte code is its UTF-16 code unit.
const char* kToUnicode =
    "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
    "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
    "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
    "1 beginbfrange\n<0000> <FFFF> <0000>\nendbfrange\n"
    "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";

QPDFObjectHandle name(const std::string& n) { return QPDFObjectHandle::newName(n); }
QPDFObjectHandle integer(long long v) { return QPDFObjectHandle::newInteger(v); }

// The Type0 font (Identity-H over a CIDFontType2 whose every CID shows the
// blank glyph 1), as an indirect object of `pdf`.
QPDFObjectHandle glyphless_font(QPDF& pdf) {
  auto font_file = QPDFObjectHandle::newStream(&pdf, glyphless_truetype());
  font_file.getDict().replaceKey("/Length1", integer(static_cast<long long>(glyphless_truetype().size())));
  std::string map(2 * 65536, '\0');
  for (size_t cid = 0; cid < 65536; ++cid) map[2 * cid + 1] = 1;
  auto cid_to_gid = QPDFObjectHandle::newStream(&pdf, map);
  auto to_unicode = QPDFObjectHandle::newStream(&pdf, kToUnicode);

  auto descriptor = QPDFObjectHandle::newDictionary();
  descriptor.replaceKey("/Type", name("/FontDescriptor"));
  descriptor.replaceKey("/FontName", name("/GlyphLessFont"));
  descriptor.replaceKey("/Flags", integer(5));
  auto bbox = QPDFObjectHandle::newArray();
  for (int v : {0, 0, kGlyphlessAdvance, 1000}) bbox.appendItem(integer(v));
  descriptor.replaceKey("/FontBBox", bbox);
  descriptor.replaceKey("/ItalicAngle", integer(0));
  // The glyphs stand on the baseline and reach one em up, so a word's height
  // is its font size and viewers highlight exactly its box.
  descriptor.replaceKey("/Ascent", integer(1000));
  descriptor.replaceKey("/Descent", integer(-1));
  descriptor.replaceKey("/CapHeight", integer(1000));
  descriptor.replaceKey("/StemV", integer(80));
  descriptor.replaceKey("/FontFile2", font_file);

  auto system_info = QPDFObjectHandle::newDictionary();
  system_info.replaceKey("/Registry", QPDFObjectHandle::newString("Adobe"));
  system_info.replaceKey("/Ordering", QPDFObjectHandle::newString("Identity"));
  system_info.replaceKey("/Supplement", integer(0));

  auto cid_font = QPDFObjectHandle::newDictionary();
  cid_font.replaceKey("/Type", name("/Font"));
  cid_font.replaceKey("/Subtype", name("/CIDFontType2"));
  cid_font.replaceKey("/BaseFont", name("/GlyphLessFont"));
  cid_font.replaceKey("/CIDSystemInfo", system_info);
  cid_font.replaceKey("/FontDescriptor", pdf.makeIndirectObject(descriptor));
  cid_font.replaceKey("/CIDToGIDMap", cid_to_gid);
  cid_font.replaceKey("/DW", integer(kGlyphlessAdvance));

  auto font = QPDFObjectHandle::newDictionary();
  font.replaceKey("/Type", name("/Font"));
  font.replaceKey("/Subtype", name("/Type0"));
  font.replaceKey("/BaseFont", name("/GlyphLessFont"));
  font.replaceKey("/Encoding", name("/Identity-H"));
  auto descendants = QPDFObjectHandle::newArray();
  descendants.appendItem(pdf.makeIndirectObject(cid_font));
  font.replaceKey("/DescendantFonts", descendants);
  font.replaceKey("/ToUnicode", to_unicode);
  return pdf.makeIndirectObject(font);
}

// A temp file beside `out_path`, named as StagedFile names them, so that a
// killed run's leftovers are recognised and removed by the next run.
std::string temp_beside(const std::string& out_path, int& fd) {
  const fs::path p(out_path);
  std::string tmpl = (p.parent_path() / ("." + p.filename().string() + ".tmp.XXXXXX")).string();
  fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw Error("cannot create a temp file beside '" + out_path + "': " + std::strerror(errno));
  return tmpl;
}

void write_pdf(QPDF& pdf, const std::string& out_path) {
  int fd = -1;
  const std::string temp = temp_beside(out_path, fd);
  ::fchmod(fd, 0644);  // mkstemp makes it 0600; the PDF is for reading
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) {
    ::close(fd);
    std::error_code ec;
    fs::remove(temp, ec);
    throw Error("cannot write PDF '" + out_path + "': " + std::strerror(errno));
  }
  try {
    // Our own FILE: QPDFWriter does not see an error of the last buffered
    // write (a full disk), so flush, sync and close are checked here.
    QPDFWriter w(pdf);
    w.setOutputFile(out_path.c_str(), file, false);
    // Streams copied from an input keep their bytes (no decoding and
    // recompressing of its images); the streams made here are compressed.
    w.setDecodeLevel(qpdf_dl_none);
    w.setCompressStreams(true);
    w.setObjectStreamMode(qpdf_o_generate);
    w.write();
    if (std::fflush(file) != 0 || std::ferror(file) || ::fsync(::fileno(file)) != 0)
      throw std::runtime_error(std::strerror(errno));
    const int closed = std::fclose(file);
    file = nullptr;
    if (closed != 0) throw std::runtime_error(std::strerror(errno));
  } catch (const std::exception& e) {
    if (file) std::fclose(file);
    std::error_code ec;
    fs::remove(temp, ec);
    throw Error("cannot write PDF '" + out_path + "': " + e.what());
  }
  std::error_code ec;
  fs::rename(temp, out_path, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw Error("cannot write PDF '" + out_path + "': " + ec.message());
  }
}

// Image data kept in an unlinked file until the writer asks for it.
class SpoolProvider : public QPDFObjectHandle::StreamDataProvider {
 public:
  explicit SpoolProvider(const std::string& beside) {
    const std::string path = temp_beside(beside, fd_);
    ::unlink(path.c_str());
  }
  ~SpoolProvider() override {
    if (fd_ >= 0) ::close(fd_);
  }
  // Appends `data` and returns its key.
  void store(QPDFObjGen og, const std::string& data) {
    const off_t at = ::lseek(fd_, 0, SEEK_END);
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Error(std::string("cannot spool a page image for the PDF: ") + std::strerror(errno));
      done += static_cast<size_t>(n);
    }
    spans_[og] = {at, data.size()};
  }
  void provideStreamData(QPDFObjGen const& og, Pipeline* pipeline) override {
    const auto [at, size] = spans_.at(og);
    std::string buf(1 << 16, '\0');
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pread(fd_, buf.data(), std::min(buf.size(), size - done), at + static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Error("cannot read back a spooled page image");
      pipeline->write(reinterpret_cast<unsigned char const*>(buf.data()), static_cast<size_t>(n));
      done += static_cast<size_t>(n);
    }
    pipeline->finish();
  }

 private:
  int fd_ = -1;
  std::map<QPDFObjGen, std::pair<off_t, size_t>> spans_;
};

QPDFObjectHandle font_resources(QPDFObjectHandle font) {
  auto fonts = QPDFObjectHandle::newDictionary();
  fonts.replaceKey(kNewPageFontResource, font);
  return fonts;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4f", v);
  return buf;
}

}  // namespace

// ---- SearchablePdf ----

struct SearchablePdf::State {
  std::string out_path;
  bool text_only = false;
  QPDF pdf;
  QPDFObjectHandle font;
  std::shared_ptr<SpoolProvider> spool;
  int pages = 0;
};

SearchablePdf::SearchablePdf(const std::string& out_path, bool text_only) : s_(std::make_unique<State>()) {
  s_->out_path = out_path;
  s_->text_only = text_only;
  s_->pdf.emptyPDF();
  s_->font = glyphless_font(s_->pdf);
  if (!text_only) s_->spool = std::make_shared<SpoolProvider>(out_path);
}

SearchablePdf::~SearchablePdf() = default;

int SearchablePdf::pages() const { return s_->pages; }

void SearchablePdf::add_page(const PdfImage* image, const DocPage& page) {
  QPDF& pdf = s_->pdf;
  const PdfPageFrame frame = image_page_frame(page.info.size, page.info.dpi_x, page.info.dpi_y);
  auto resources = QPDFObjectHandle::newDictionary();
  resources.replaceKey("/Font", font_resources(s_->font));
  std::string content;
  if (!s_->text_only && image) {
    auto xobject = QPDFObjectHandle::newStream(&pdf);
    auto dict = xobject.getDict();
    dict.replaceKey("/Type", name("/XObject"));
    dict.replaceKey("/Subtype", name("/Image"));
    dict.replaceKey("/Width", integer(image->width));
    dict.replaceKey("/Height", integer(image->height));
    dict.replaceKey("/ColorSpace", name(image->components == 1 ? "/DeviceGray" : "/DeviceRGB"));
    dict.replaceKey("/BitsPerComponent", integer(8));
    QPDFObjectHandle parms = QPDFObjectHandle::newNull();
    if (image->png_predictor_columns > 0) {
      parms = QPDFObjectHandle::newDictionary();
      parms.replaceKey("/Predictor", integer(15));
      parms.replaceKey("/Colors", integer(image->components));
      parms.replaceKey("/BitsPerComponent", integer(8));
      parms.replaceKey("/Columns", integer(image->png_predictor_columns));
    }
    s_->spool->store(xobject.getObjGen(), image->data);
    xobject.replaceStreamData(s_->spool, name(image->filter), parms);
    auto xobjects = QPDFObjectHandle::newDictionary();
    xobjects.replaceKey("/Im0", xobject);
    resources.replaceKey("/XObject", xobjects);
    content += "q\n" + num(frame.urx) + " 0 0 " + num(frame.ury) + " 0 0 cm\n/Im0 Do\nQ\n";
  }
  content += text_layer_operators(page, frame, kNewPageFontResource);

  auto media_box = QPDFObjectHandle::newArray();
  for (double v : {0.0, 0.0, frame.urx, frame.ury}) media_box.appendItem(QPDFObjectHandle::newReal(v, 4));
  auto dict = QPDFObjectHandle::newDictionary();
  dict.replaceKey("/Type", name("/Page"));
  dict.replaceKey("/MediaBox", media_box);
  dict.replaceKey("/Resources", resources);
  dict.replaceKey("/Contents", QPDFObjectHandle::newStream(&pdf, content));
  QPDFPageDocumentHelper(pdf).addPage(QPDFPageObjectHelper(pdf.makeIndirectObject(dict)), false);
  ++s_->pages;
}

void SearchablePdf::finish() {
  auto info = QPDFObjectHandle::newDictionary();
  info.replaceKey("/Producer", QPDFObjectHandle::newUnicodeString("ocrforge " OCRFORGE_VERSION " (qpdf)"));
  s_->pdf.getTrailer().replaceKey("/Info", s_->pdf.makeIndirectObject(info));
  write_pdf(s_->pdf, s_->out_path);
}

// ---- PdfTextOverlay ----

struct PdfTextOverlay::State {
  QPDF pdf;
  std::vector<QPDFPageObjectHelper> pages;
  QPDFObjectHandle font;
};

PdfTextOverlay::PdfTextOverlay(const std::string& input_pdf) : s_(std::make_unique<State>()) {
  try {
    s_->pdf.setSuppressWarnings(true);
    s_->pdf.processFile(input_pdf.c_str());
    QPDFPageDocumentHelper doc(s_->pdf);
    // Inherited /Resources, /MediaBox, /CropBox, /Rotate become each page's
    // own, so one page's new font never lands in a dictionary others share
    // through the page tree.
    doc.pushInheritedAttributesToPage();
    s_->pages = doc.getAllPages();
  } catch (const std::exception& e) {
    throw Error("cannot open PDF '" + input_pdf + "' to add text: " + e.what());
  }
}

PdfTextOverlay::~PdfTextOverlay() = default;

PdfPageFrame PdfTextOverlay::frame(int index, double dpi_x, double dpi_y) {
  QPDFPageObjectHelper& page = s_->pages.at(static_cast<size_t>(index));
  const auto box = page.getCropBox(false, false).getArrayAsRectangle();
  PdfPageFrame f;
  f.llx = std::min(box.llx, box.urx);
  f.lly = std::min(box.lly, box.ury);
  f.urx = std::max(box.llx, box.urx);
  f.ury = std::max(box.lly, box.ury);
  auto rotate = page.getAttribute("/Rotate", false);
  f.rotate = rotate.isInteger() ? static_cast<int>(rotate.getIntValue()) : 0;
  f.dpi_x = dpi_x;
  f.dpi_y = dpi_y;
  return f;
}

void PdfTextOverlay::add_text(int index, const DocPage& page, const PdfPageFrame& frame) {
  const std::string ops = text_layer_operators(page, frame, kFontResource);
  if (ops.empty()) return;
  QPDF& pdf = s_->pdf;
  if (!s_->font.isInitialized()) s_->font = glyphless_font(pdf);
  QPDFPageObjectHelper& p = s_->pages.at(static_cast<size_t>(index));
  QPDFObjectHandle page_obj = p.getObjectHandle();
  QPDFObjectHandle resources = page_obj.getKey("/Resources");
  if (!resources.isDictionary()) {
    resources = QPDFObjectHandle::newDictionary();
    page_obj.replaceKey("/Resources", resources);
  } else if (resources.isIndirect()) {
    // Shared with other pages: this page gets its own shallow copy.
    resources = resources.shallowCopy();
    page_obj.replaceKey("/Resources", resources);
  }
  QPDFObjectHandle fonts = resources.getKey("/Font");
  fonts = fonts.isDictionary() ? fonts.shallowCopy() : QPDFObjectHandle::newDictionary();
  fonts.replaceKey(kFontResource, s_->font);
  resources.replaceKey("/Font", fonts);
  // The page's own drawing may leave the graphics state changed: it runs
  // inside q ... Q, and the text after it in the page's default state.
  p.addPageContents(QPDFObjectHandle::newStream(&pdf, "q\n"), true);
  p.addPageContents(QPDFObjectHandle::newStream(&pdf, "Q\n" + ops), false);
}

void PdfTextOverlay::finish(const std::string& out_path) { write_pdf(s_->pdf, out_path); }

}  // namespace ocrforge
