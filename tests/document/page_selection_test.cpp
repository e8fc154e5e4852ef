// --pages lists.
#include "ocrforge/document/page_selection.h"

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"

using ocrforge::PageSelection;

TEST(PageSelection, RangesListsAndOpenEnds) {
  EXPECT_EQ(PageSelection::parse("1-3,7").pages_of(10), (std::vector<int>{0, 1, 2, 6}));
  EXPECT_EQ(PageSelection::parse("8-").pages_of(10), (std::vector<int>{7, 8, 9}));
  EXPECT_EQ(PageSelection::parse(" 3, 1-2 ,2").pages_of(10), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(PageSelection::parse("5-9").pages_of(6), (std::vector<int>{4, 5}));  // past the end: ignored
  EXPECT_EQ(PageSelection::parse("").pages_of(3), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(PageSelection::parse("").all());
}

TEST(PageSelection, BadListsAreUsageErrors) {
  for (const char* bad : {"0", "a", "3-1", "1-x", "-2", "1,,2"}) {
    try {
      PageSelection::parse(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ocrforge::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--pages"), std::string::npos) << e.what();
    }
  }
}
