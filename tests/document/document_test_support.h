// Shared by the document tests: hand-made pages and checks for the tools
// (xmllint, pdftotext, qpdf) the tests use as outside consumers.
#pragma once
#include <cstdlib>
#include <string>

#include "ocrforge/document/page_layout.h"
#include "ocrforge/document/pdf_image.h"
#include "ocrforge/document/pdf_writer.h"
#include "test_support.h"

namespace ocrforge::test {

// True when `program` is on PATH (tests using it skip otherwise).
inline bool have(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

inline Quad rect_quad(float x, float y, float w, float h) {
  return {cv::Point2f(x, y), cv::Point2f(x + w, y), cv::Point2f(x + w, y + h), cv::Point2f(x, y + h)};
}

inline DocWord word(const std::string& text, int x, int y, int w, int h, float conf = 90.f) {
  DocWord d;
  d.text = text;
  d.quad = rect_quad(static_cast<float>(x), static_cast<float>(y), static_cast<float>(w), static_cast<float>(h));
  d.box = {x, y, x + w, y + h};
  d.conf = conf;
  return d;
}

// A 1000 x 800 page at 200 dpi: two blocks, the first with two lines.
inline DocPage sample_page() {
  DocPage page;
  page.info.image_name = "scan \"1\".png";
  page.info.size = {1000, 800};
  page.info.dpi_x = page.info.dpi_y = 200;
  DocLine l1, l2, l3;
  l1.words = {word("Invoice", 100, 100, 200, 40), word("No.", 320, 100, 80, 40)};
  l2.words = {word("A&B", 100, 160, 120, 40, 55.5f), word("<Ltd>", 240, 160, 150, 40)};
  l3.words = {word("Total", 600, 500, 150, 40)};
  for (DocLine* l : {&l1, &l2, &l3}) {
    l->box = l->words.front().box;
    l->box.x1 = l->words.back().box.x1;
  }
  DocParagraph p1, p2;
  p1.lines = {l1, l2};
  p1.box = {100, 100, 400, 200};
  p2.lines = {l3};
  p2.box = l3.box;
  DocBlock b1, b2;
  b1.paragraphs = {p1};
  b1.box = p1.box;
  b2.paragraphs = {p2};
  b2.box = p2.box;
  page.blocks = {b1, b2};
  return page;
}

// `path`: a PDF of `pages` pages each showing the sample receipt
// (imgs_en_254.jpg, 700 x 933) at 100 dpi, as a scanner would write it.
inline std::string receipt_pdf(const std::string& path, int pages = 1) {
  const auto jpeg = pdf_image_from_file(data_dir() + "/samples/imgs_en_254.jpg");
  DocPage page;
  page.info.size = {700, 933};
  page.info.dpi_x = page.info.dpi_y = 100;
  SearchablePdf pdf(path, false);
  for (int i = 0; i < pages; ++i) pdf.add_page(&*jpeg, page);
  pdf.finish();
  return path;
}

}  // namespace ocrforge::test
