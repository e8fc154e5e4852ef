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
