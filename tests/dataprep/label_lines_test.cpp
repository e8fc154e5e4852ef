// Label lines as every `data` chore reads them: blank lines, CRs and a BOM dropped.
#include "ocrforge/dataprep/label_lines.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

TEST(LabelLines, BlankLinesCrAndBomAreDroppedAndJoinEndsEveryLine) {
  const std::string dir = test::fresh_dir("label_lines");
  test::write_text(dir + "/a.txt", "\xEF\xBB\xBFimg/a.jpg\tA\r\n\n   \nimg/b.jpg\tB\n\t\nimg/c.jpg\tC");
  const std::vector<std::string> lines = read_label_lines(dir + "/a.txt", "--label");
  EXPECT_EQ(lines, (std::vector<std::string>{"img/a.jpg\tA", "img/b.jpg\tB", "img/c.jpg\tC"}));
  EXPECT_EQ(join_label_lines(lines), "img/a.jpg\tA\nimg/b.jpg\tB\nimg/c.jpg\tC\n");
  EXPECT_EQ(join_label_lines({}), "");
}

TEST(LabelLines, AMissingFileNamesItAndTheFlag) {
  const std::string m = test::message_of<Error>([] { read_label_lines("/nonexistent/x.txt", "--label"); });
  EXPECT_NE(m.find("/nonexistent/x.txt"), std::string::npos) << m;
  EXPECT_NE(m.find("--label"), std::string::npos) << m;
}
