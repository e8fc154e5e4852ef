// From OCR results to the page layout the document outputs write.
#include "ocrforge/document/page_layout.h"

#include <gtest/gtest.h>

#include "document_test_support.h"

using namespace ocrforge;

namespace {

OcrLine line(const std::string& text, float x, float y, float w, float h, std::vector<OcrWord> words = {}) {
  OcrLine l;
  l.text = text;
  l.score = 0.9f;
  l.box = test::rect_quad(x, y, w, h);
  l.polygon.assign(l.box.begin(), l.box.end());
  l.words = std::move(words);
  return l;
}

}  // namespace

TEST(PageLayout, RowsBecomeLinesOfWordsInReadingOrder) {
  OcrResult r;
  r.image_size = {800, 600};
  // Detection order: the price first, then its item on the same row.
  r.lines.push_back(line("$4.50", 600, 102, 80, 30, {{"$4.50", test::rect_quad(600, 102, 80, 30), 0.95f}}));
  r.lines.push_back(line("Coffee to go", 100, 100, 240, 30,
                         {{"Coffee", test::rect_quad(100, 100, 110, 30), 0.9f},
                          {"to", test::rect_quad(220, 100, 30, 30), 0.8f},
                          {"go", test::rect_quad(260, 100, 80, 30), 0.7f}}));
  r.lines.push_back(line("Thank you", 100, 400, 200, 30));  // no word boxes: one word
  PageInfo info;
  info.size = r.image_size;
  const DocPage page = build_page(r, info);
  ASSERT_EQ(page.blocks.size(), 2u);
  const DocLine& row = page.blocks[0].paragraphs[0].lines[0];
  ASSERT_EQ(row.words.size(), 4u);
  EXPECT_EQ(row.words[0].text, "Coffee");
  EXPECT_EQ(row.words[3].text, "$4.50");
  EXPECT_EQ(row.box.x0, 100);
  EXPECT_EQ(row.box.x1, 680);
  EXPECT_NEAR(row.words[1].conf, 80.f, 1e-4);
  EXPECT_EQ(page.blocks[1].paragraphs[0].lines[0].words[0].text, "Thank you");
  EXPECT_EQ(page_text(page), "Coffee to go $4.50\n\nThank you\n\n");
}

TEST(PageLayout, BoxesAreClippedToThePage) {
  OcrResult r;
  r.image_size = {100, 50};
  r.lines.push_back(line("edge", -5, 40, 120, 20));
  PageInfo info;
  info.size = r.image_size;
  const DocWord& w = build_page(r, info).blocks[0].paragraphs[0].lines[0].words[0];
  EXPECT_EQ(w.box.x0, 0);
  EXPECT_EQ(w.box.x1, 100);
  EXPECT_EQ(w.box.y1, 50);
}

TEST(PageLayout, EmptyResultEmptyPage) {
  OcrResult r;
  r.image_size = {10, 10};
  PageInfo info;
  info.size = r.image_size;
  EXPECT_TRUE(build_page(r, info).blocks.empty());
  EXPECT_EQ(page_text(build_page(r, info)), "");
}
