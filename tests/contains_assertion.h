// EXPECT_TRUE(contains(message, "part")): on failure, prints both texts.
#pragma once
#include <string>

#include <gtest/gtest.h>

namespace ocrforge::test {

inline testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "'" << text << "'\n  does not contain\n'" << part << "'";
}

}  // namespace ocrforge::test
