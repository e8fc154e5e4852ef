// The word list behind dictionary-aware decoding: case rules and the words one edit away.
#include "ocrforge/vision/lexicon.h"

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "ocrforge/core/error.h"
#include "../contains_assertion.h"

using ocrforge::Lexicon;
using ocrforge::test::contains;

namespace {

Lexicon small() { return Lexicon::from_words({"which", "witch", "the", "Germany", "iPhone", "camp", "café", "dog's"}); }

bool has(const std::vector<std::string>& v, const std::string& w) { return std::find(v.begin(), v.end(), w) != v.end(); }

}  // namespace

TEST(Lexicon, AcceptsListedSpellingsCapitalisedAndInCapitals) {
  const Lexicon lx = small();
  EXPECT_TRUE(lx.accepts("the"));
  EXPECT_TRUE(lx.accepts("The"));
  EXPECT_TRUE(lx.accepts("THE"));
  EXPECT_FALSE(lx.accepts("tHe"));
  EXPECT_TRUE(lx.accepts("Germany"));
  EXPECT_TRUE(lx.accepts("GERMANY"));
  EXPECT_FALSE(lx.accepts("germany"));  // a name keeps its capital
  EXPECT_TRUE(lx.accepts("iPhone"));
  EXPECT_FALSE(lx.accepts("Iphone"));
  EXPECT_FALSE(lx.accepts("dog's"));  // possessives are left out of the list
  EXPECT_FALSE(lx.accepts("whioh"));
}

TEST(Lexicon, NearFindsEveryKindOfSingleEditAndNothingFarther) {
  const Lexicon lx = small();
  EXPECT_TRUE(has(lx.near("whioh"), "which"));  // substitution
  EXPECT_FALSE(has(lx.near("whioh"), "witch")); // two edits
  EXPECT_TRUE(has(lx.near("wich"), "which"));   // insertion
  EXPECT_TRUE(has(lx.near("whicch"), "which")); // deletion
  EXPECT_TRUE(has(lx.near("hte"), "the"));      // swap of neighbours
  EXPECT_TRUE(has(lx.near("oamp"), "camp"));
  EXPECT_TRUE(has(lx.near("CAMP"), "camp"));    // the same word in other case
  EXPECT_TRUE(has(lx.near("cafe"), "café"));    // a character, not a byte
  EXPECT_TRUE(lx.near("zzzzz").empty());
  const auto w = lx.near("whitch");
  EXPECT_EQ(std::count(w.begin(), w.end(), "which"), 1);
  EXPECT_EQ(std::count(w.begin(), w.end(), "witch"), 1);
}

TEST(Lexicon, LoadSkipsPhrasesAndNamesTheFileWhenMissing) {
  const std::string path = testing::TempDir() + "/words.txt";
  {
    std::ofstream f(path);
    f << "apple\r\nnew york\nbanana\n\n";
  }
  const Lexicon lx = Lexicon::load(path);
  EXPECT_EQ(lx.size(), 2u);
  EXPECT_TRUE(lx.accepts("banana"));
  try {
    Lexicon::load(path + ".absent", "--rec_lexicon");
    ADD_FAILURE() << "no error for a missing word list";
  } catch (const ocrforge::Error& e) {
    EXPECT_TRUE(contains(e.what(), "words.txt.absent' (--rec_lexicon)"));
  }
  {
    std::ofstream f(path);
    f << "two words\n";
  }
  try {
    Lexicon::load(path);
    ADD_FAILURE() << "no error for a list of phrases only";
  } catch (const ocrforge::Error& e) {
    EXPECT_TRUE(contains(e.what(), "holds no word"));
  }
}
