// TSV output in Tesseract's columns and levels.
#include "ocrforge/document/tsv.h"

#include <gtest/gtest.h>

#include "document_test_support.h"
#include "ocrforge/core/text.h"

using namespace ocrforge;

TEST(Tsv, LevelsAndNumbersFollowTesseract) {
  const std::string tsv = tsv_header() + tsv_page(test::sample_page(), 3);
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : split(tsv, '\n'))
    if (!line.empty()) rows.push_back(split(line, '\t'));
  ASSERT_EQ(rows[0].size(), 12u);
  EXPECT_EQ(rows[0][0], "level");
  EXPECT_EQ(rows[0][11], "text");
  // page, block, par, line, 2 words, line, 2 words, block, par, line, word.
  ASSERT_EQ(rows.size(), 1u + 13u);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "3", "0", "0", "0", "0", "0", "0", "1000", "800", "-1", ""}));
  EXPECT_EQ(rows[5][0], "5");
  EXPECT_EQ(rows[5][11], "Invoice");
  EXPECT_EQ(rows[5][10].substr(0, 5), "90.00");
  // The second line's words: line_num 2, word_num restarts.
  EXPECT_EQ(rows[9], (std::vector<std::string>{"5", "3", "1", "1", "2", "2", "240", "160", "150", "40", "90.000000",
                                               "<Ltd>"}));
  // The second block restarts paragraphs and lines.
  EXPECT_EQ(rows[11][0], "3");
  EXPECT_EQ(rows[11][2], "2");
  EXPECT_EQ(rows[11][3], "1");
  for (const auto& r : rows) EXPECT_EQ(r.size(), 12u);
}
