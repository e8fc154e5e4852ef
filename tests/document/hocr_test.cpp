// hOCR output: valid XHTML (checked with xmllint against the XHTML 1.0
// Transitional DTD) with the hOCR classes, boxes and confidences.
#include "ocrforge/document/hocr.h"

#include <gtest/gtest.h>

#include "document_test_support.h"

using namespace ocrforge;

TEST(Hocr, PageHasClassesBoxesAndConfidences) {
  const std::string page = hocr_page(test::sample_page(), 1);
  EXPECT_NE(page.find("class=\"ocr_page\" id=\"page_1\" title=\"image &quot;scan &quot;1&quot;.png&quot;; bbox 0 0 1000 800; ppageno 0; scan_res 200 200\""),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("class=\"ocr_carea\" id=\"block_1_2\""), std::string::npos);
  EXPECT_NE(page.find("class=\"ocr_par\" id=\"par_1_1\" title=\"bbox 100 100 400 200\""), std::string::npos);
  EXPECT_NE(page.find("class=\"ocr_line\" id=\"line_1_3\""), std::string::npos);
  EXPECT_NE(page.find("title=\"bbox 100 160 220 200; x_wconf 56\">A&amp;B</span>"), std::string::npos);
  EXPECT_NE(page.find(">&lt;Ltd&gt;</span>"), std::string::npos);
}

TEST(Hocr, DocumentIsValidXhtml) {
  if (!test::have("xmllint")) GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
  const std::string dir = test::fresh_dir("hocr_valid");
  DocPage second = test::sample_page();
  second.info.index = 1;
  test::write_text(dir + "/a.hocr", hocr_begin() + hocr_page(test::sample_page(), 1) + hocr_page(second, 2) + hocr_end());
  // The DTD comes from the system's XML catalog (w3c-sgml-lib), never the network.
  const auto r = test::run_command("xmllint --valid --noout --nonet " + dir + "/a.hocr", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A broken document must fail the same check (the check can fail).
  test::write_text(dir + "/bad.hocr", hocr_begin() + "<span class=\"ocr_line\"><p>x</p></span>" + hocr_end());
  EXPECT_NE(test::run_command("xmllint --valid --noout --nonet " + dir + "/bad.hocr", dir).exit_code, 0);
}
