// ALTO output: valid against the ALTO 4.4 schema (shipped in tests/data/alto).
#include "ocrforge/document/alto.h"

#include <gtest/gtest.h>

#include "document_test_support.h"

using namespace ocrforge;

namespace {

test::CommandResult validate(const std::string& file, const std::string& dir) {
  const std::string alto = test::data_dir() + "/alto";
  return test::run_command("XML_CATALOG_FILES=" + alto + "/catalog.xml xmllint --nonet --noout --schema " + alto +
                               "/alto-4-4.xsd " + file,
                           dir);
}

}  // namespace

TEST(Alto, StringsCarryPositionsConfidenceAndContent) {
  const std::string page = alto_page(test::sample_page(), 1);
  EXPECT_NE(page.find("<Page ID=\"page_1\" PHYSICAL_IMG_NR=\"1\" WIDTH=\"1000\" HEIGHT=\"800\">"), std::string::npos);
  EXPECT_NE(page.find("<String ID=\"string_1_3\" HPOS=\"100\" VPOS=\"160\" WIDTH=\"120\" HEIGHT=\"40\" WC=\"0.56\" "
                      "CONTENT=\"A&amp;B\"/>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<SP WIDTH=\"20\" HPOS=\"300\" VPOS=\"100\"/>"), std::string::npos);
}

TEST(Alto, DocumentIsValidAgainstTheSchema) {
  if (!test::have("xmllint")) GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
  const std::string dir = test::fresh_dir("alto_valid");
  DocPage empty;
  empty.info.size = {10, 10};
  test::write_text(dir + "/a.xml", alto_begin("scan <1>.png") + alto_page(test::sample_page(), 1) +
                                       alto_page(empty, 2) + alto_end());
  const auto r = validate(dir + "/a.xml", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The schema check can fail: a String without CONTENT is refused.
  test::write_text(dir + "/bad.xml", alto_begin("x") +
                                         "    <Page ID=\"p\" PHYSICAL_IMG_NR=\"1\"><PrintSpace><TextBlock ID=\"b\">"
                                         "<TextLine ID=\"l\" HPOS=\"0\" VPOS=\"0\" WIDTH=\"1\" HEIGHT=\"1\">"
                                         "<String HPOS=\"0\"/></TextLine></TextBlock></PrintSpace></Page>\n" +
                                         alto_end());
  EXPECT_NE(validate(dir + "/bad.xml", dir).exit_code, 0);
}

TEST(Alto, Version3IsTesseractsNamespaceWithPagesFromZero) {
  const std::string head = alto_begin("scan.png", AltoVersion::v3);
  EXPECT_NE(head.find("xmlns=\"http://www.loc.gov/standards/alto/ns-v3#\""), std::string::npos) << head;
  EXPECT_NE(head.find("alto-3-0.xsd"), std::string::npos) << head;
  EXPECT_EQ(head.find("ns-v4"), std::string::npos) << head;
  const std::string page = alto_page(test::sample_page(), 1, AltoVersion::v3);
  EXPECT_NE(page.find("<Page ID=\"page_0\" PHYSICAL_IMG_NR=\"0\""), std::string::npos) << page;
  EXPECT_NE(alto_page(test::sample_page(), 2, AltoVersion::v3).find("PHYSICAL_IMG_NR=\"1\""), std::string::npos);
}

TEST(Alto, Version3DeclaresWhatTesseractDeclares) {
  if (!test::have("tesseract")) GTEST_SKIP() << "tesseract is not installed";
  const std::string dir = test::fresh_dir("alto_tesseract");
  const auto r = test::run_command("tesseract " + test::data_dir() + "/samples/imgs_en_254.jpg " + dir +
                                       "/t -l eng alto 2>/dev/null || tesseract " + test::data_dir() +
                                       "/samples/imgs_en_254.jpg " + dir + "/t alto",
                                   dir);
  if (r.exit_code != 0) GTEST_SKIP() << "tesseract could not write ALTO: " << r.err;
  const std::string theirs = test::read_text(dir + "/t.xml");
  const auto root_ns = [](const std::string& doc) {
    const size_t at = doc.find("<alto xmlns=\"");
    return at == std::string::npos ? std::string() : doc.substr(at + 13, doc.find('"', at + 13) - at - 13);
  };
  EXPECT_EQ(root_ns(alto_begin("x", AltoVersion::v3)), root_ns(theirs));
  EXPECT_NE(theirs.find("PHYSICAL_IMG_NR=\"0\""), std::string::npos) << theirs.substr(0, 2000);
}
