// Searchable PDFs: new ones from page images, and text added to existing
// ones, checked with poppler's pdftotext as an outside reader.
#include "ocrforge/document/pdf_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include <opencv2/imgcodecs.hpp>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include "document_test_support.h"

using namespace ocrforge;

namespace {

const std::string kImage = "/samples/imgs_en_254.jpg";

// pdftotext -bbox: each word with its box (points, as shown).
struct FoundWord {
  std::string text;
  double x0, y0, x1, y1;
};

std::vector<FoundWord> pdftotext_words(const std::string& pdf, const std::string& dir, int page = 0) {
  const std::string range = page > 0 ? " -f " + std::to_string(page) + " -l " + std::to_string(page) : "";
  const auto r = test::run_command("pdftotext -bbox" + range + " " + pdf + " -", dir);
  std::vector<FoundWord> words;
  const std::regex re("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), re), end; it != end; ++it)
    words.push_back({(*it)[5], std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])});
  return words;
}

const FoundWord* find(const std::vector<FoundWord>& words, const std::string& text) {
  for (const auto& w : words)
    if (w.text == text) return &w;
  return nullptr;
}

// The word's box in points as shown, from pixels at `dpi`.
void expect_at(const FoundWord* w, const DocWord& want, double dpi) {
  ASSERT_NE(w, nullptr) << want.text;
  const double s = 72.0 / dpi;
  EXPECT_NEAR(w->x0, want.box.x0 * s, 0.5) << want.text;
  EXPECT_NEAR(w->x1, want.box.x1 * s, 0.5) << want.text;
  EXPECT_NEAR(w->y0, want.box.y0 * s, 0.5) << want.text;
  EXPECT_NEAR(w->y1, want.box.y1 * s, 0.5) << want.text;
}

// The raw (still encoded) data of every image on every page.
std::vector<std::string> raw_images(const std::string& pdf_path) {
  QPDF pdf;
  pdf.processFile(pdf_path.c_str());
  std::vector<std::string> out;
  for (auto& page : QPDFPageDocumentHelper(pdf).getAllPages())
    for (auto& [name, image] : page.getPageImages()) {
      auto data = image.getRawStreamData();
      out.emplace_back(reinterpret_cast<const char*>(data->getBuffer()), data->getSize());
    }
  return out;
}

DocPage page_of(const std::string& image_path, double dpi, std::vector<DocWord> words) {
  DocPage page;
  page.info.size = cv::imread(image_path).size();
  page.info.dpi_x = page.info.dpi_y = dpi;
  if (!words.empty()) {
    DocLine line;
    line.words = std::move(words);
    DocParagraph par;
    par.lines = {line};
    DocBlock block;
    block.paragraphs = {par};
    page.blocks = {block};
  }
  return page;
}

}  // namespace

TEST(PdfWriter, NewPdfKeepsTheJpegAndPlacesEachWord) {
  if (!test::have("pdftotext")) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("pdf_new");
  const std::string image = test::data_dir() + kImage;
  const std::vector<DocWord> words = {test::word("Receipt", 100, 50, 300, 60), test::word("total:", 450, 52, 150, 58),
                                      test::word("$23.32", 620, 50, 70, 60)};
  const DocPage page = page_of(image, 150, words);
  const auto jpeg = pdf_image_from_file(image);
  ASSERT_TRUE(jpeg.has_value());
  EXPECT_EQ(jpeg->filter, "/DCTDecode");
  SearchablePdf pdf(dir + "/out.pdf", false);
  pdf.add_page(&*jpeg, page);
  pdf.finish();
  const auto found = pdftotext_words(dir + "/out.pdf", dir);
  ASSERT_EQ(found.size(), 3u);
  for (const auto& w : words) expect_at(find(found, w.text), w, 150);
  // The page image is the input file's bytes, not a re-encoded copy.
  EXPECT_EQ(raw_images(dir + "/out.pdf"), std::vector<std::string>{test::read_text(image)});
  // qpdf finds nothing wrong with the file (our font included).
  if (test::have("qpdf")) {
    EXPECT_EQ(test::run_command("qpdf --check " + dir + "/out.pdf", dir).exit_code, 0);
  }
}

TEST(PdfWriter, PixelsAreStoredLosslessly) {
  cv::Mat img(40, 60, CV_8UC3);
  cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(255));
  const PdfImage colour = pdf_image_from_pixels(img);
  EXPECT_EQ(colour.components, 3);
  cv::Mat grey(40, 60, CV_8UC3, cv::Scalar(7, 7, 7));
  EXPECT_EQ(pdf_image_from_pixels(grey).components, 1);
  // Written into a PDF and taken back out by poppler's pdfimages, the
  // pixels are unchanged.
  if (!test::have("pdfimages")) GTEST_SKIP() << "pdfimages (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("pdf_pixels");
  DocPage page;
  page.info.size = img.size();
  page.info.dpi_x = page.info.dpi_y = 72;
  SearchablePdf pdf(dir + "/p.pdf", false);
  pdf.add_page(&colour, page);
  pdf.finish();
  ASSERT_EQ(test::run_command("pdfimages -png " + dir + "/p.pdf " + dir + "/p", dir).exit_code, 0);
  const cv::Mat back = cv::imread(dir + "/p-000.png");
  ASSERT_EQ(back.size(), img.size());
  EXPECT_EQ(cv::norm(back, img, cv::NORM_INF), 0.0);
}

TEST(PdfWriter, TextOnlyPagesHaveNoImage) {
  if (!test::have("pdftotext")) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("pdf_textonly");
  const DocPage page = page_of(test::data_dir() + kImage, 300, {test::word("only", 10, 10, 100, 40)});
  SearchablePdf pdf(dir + "/t.pdf", true);
  pdf.add_page(nullptr, page);
  pdf.finish();
  EXPECT_TRUE(raw_images(dir + "/t.pdf").empty());
  expect_at(find(pdftotext_words(dir + "/t.pdf", dir), "only"), page.blocks[0].paragraphs[0].lines[0].words[0], 300);
}

TEST(PdfWriter, OverlayKeepsThePagesAndAddsTextWhereTheWordsAre) {
  if (!test::have("pdftotext")) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
  const std::string dir = test::fresh_dir("pdf_overlay");
  const std::string image = test::data_dir() + kImage;
  const auto jpeg = pdf_image_from_file(image);
  {  // An image-only PDF of two pages; the second shown turned by 90 degrees.
    SearchablePdf scan(dir + "/scan.pdf", false);
    scan.add_page(&*jpeg, page_of(image, 100, {}));
    scan.add_page(&*jpeg, page_of(image, 100, {}));
    scan.finish();
    QPDF q;
    q.processFile((dir + "/scan.pdf").c_str());
    QPDFPageDocumentHelper(q).getAllPages()[1].getObjectHandle().replaceKey("/Rotate",
                                                                               QPDFObjectHandle::newInteger(90));
    QPDFWriter w(q, (dir + "/scan_rot.pdf").c_str());
    w.write();
  }
  EXPECT_TRUE(pdftotext_words(dir + "/scan_rot.pdf", dir).empty());
  // Rendered at 200 dpi, page 2 (turned) is an image as wide as page 1 is tall.
  const cv::Size shown(static_cast<int>(933 * 2.0), static_cast<int>(700 * 2.0));
  const DocWord on_first = test::word("first", 200, 300, 400, 80);
  const DocWord on_turned = test::word("turned", 900, 500, 500, 90);
  PdfTextOverlay overlay(dir + "/scan_rot.pdf");
  DocPage p1 = page_of(image, 200, {on_first}), p2 = page_of(image, 200, {on_turned});
  p2.info.size = shown;
  overlay.add_text(0, p1, overlay.frame(0, 200, 200));
  const PdfPageFrame f2 = overlay.frame(1, 200, 200);
  EXPECT_EQ(f2.rotate, 90);
  overlay.add_text(1, p2, f2);
  overlay.finish(dir + "/out.pdf");
  expect_at(find(pdftotext_words(dir + "/out.pdf", dir, 1), "first"), on_first, 200);
  expect_at(find(pdftotext_words(dir + "/out.pdf", dir, 2), "turned"), on_turned, 200);
  // Both pages still show the very same image bytes.
  EXPECT_EQ(raw_images(dir + "/out.pdf"), raw_images(dir + "/scan_rot.pdf"));
}
