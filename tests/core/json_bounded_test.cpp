// JSON read with bounded nesting (core/json_bounded.h): every JSON ocrforge
// reads from outside goes through it, so a document nested deep enough to
// overflow the stack when used later is refused where it is read.
#include "ocrforge/core/json_bounded.h"

#include <gtest/gtest.h>

#include "ocrforge/core/label_file.h"

namespace ocrforge {
namespace {

std::string nested(int levels, const std::string& inner = "1") {
  return std::string(static_cast<size_t>(levels), '[') + inner + std::string(static_cast<size_t>(levels), ']');
}

TEST(JsonBounded, DepthUpToTheBoundParsesAndOneMoreIsRefused) {
  EXPECT_EQ(parse_json_bounded(nested(8), 8).dump(), nested(8));
  EXPECT_THROW(parse_json_bounded(nested(9), 8), JsonTooDeepError);
  EXPECT_EQ(parse_json_bounded(R"({"a": )" + nested(7) + "}", 8)["a"].dump(), nested(7));
  try {
    parse_json_bounded(R"({"ok": 1, "deep": )" + nested(8) + "}", 8);
    ADD_FAILURE() << "a value nested 9 deep under an object must be refused";
  } catch (const JsonTooDeepError& e) {
    EXPECT_EQ(e.field(), "deep");
    EXPECT_NE(std::string(e.what()).find("field 'deep' nests arrays or objects deeper than 8 levels"),
              std::string::npos)
        << e.what();
  }
}

TEST(JsonBounded, AHugeDepthIsRefusedWithoutRecursion) {
  // Deep enough to overflow an 8 MB stack in any recursive walk.
  const std::string deep = nested(1000000);
  EXPECT_THROW(parse_json_bounded(deep), JsonTooDeepError);
  std::string objects;
  for (int i = 0; i < 1000000; ++i) objects += "{\"a\":";
  EXPECT_THROW(parse_json_bounded(objects), JsonTooDeepError);
}

TEST(JsonBounded, OtherErrorsStayNlohmanns) {
  EXPECT_THROW(parse_json_bounded("{\"a\": "), nlohmann::json::parse_error);
  EXPECT_THROW(parse_json_bounded("[1e400]"), nlohmann::json::exception);
}

TEST(JsonBounded, ExcerptIsCut) {
  const nlohmann::json long_string = std::string(1000, 'x');
  const std::string e = json_excerpt(long_string, 20);
  EXPECT_EQ(e.size(), 23u);
  EXPECT_EQ(e.substr(20), "...");
}

// A detection label line nested deep is a label error naming the line, as
// any other malformed label.
TEST(JsonBounded, DeepDetLabelIsAnErrorNamingTheLine) {
  try {
    parse_det_label_line("img.jpg\t" + nested(100000), "Label.txt", 3, '\t');
    ADD_FAILURE() << "must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Label.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("deeper than"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ocrforge
