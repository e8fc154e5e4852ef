// Tests for the PaddleOCR-style command-line parser in ocrforge/core/flags.h.
#include "ocrforge/core/flags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ocrforge/core/error.h"
#include "test_support.h"

using ocrforge::FlagSet;
using ocrforge::UsageError;
using Strings = std::vector<std::string>;

namespace {

FlagSet make_flags() {
  FlagSet f("ocr");
  f.add("image_dir", "", "image file or folder");
  f.add("det_db_thresh", "0.3", "pixel threshold of the DB map");
  f.add("drop_score", "0.5", "drop results below this score");
  f.add("rec_image_shape", "3, 48, 320", "recognizer input C, H, W");
  f.add("rec_batch_num", "6", "recognizer batch size");
  f.add_bool("use_gpu", true, "run on the GPU");
  f.add_bool("use_angle_cls", false, "classify 180-degree rotated lines");
  return f;
}

// Runs parse and returns the UsageError message ("" when nothing was thrown).
std::string usage_error_of(FlagSet& f, const Strings& args) {
  return ocrforge::test::message_of<UsageError>([&] {
    f.parse(args);
  });
}

}  // namespace

TEST(FlagSet, DefaultsApplyWhenNothingIsPassed) {
  FlagSet f = make_flags();
  EXPECT_TRUE(f.parse({}).empty());
  EXPECT_EQ(f.get("det_db_thresh"), "0.3");
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.5);
  EXPECT_EQ(f.get_int("rec_batch_num"), 6);
  EXPECT_TRUE(f.get_bool("use_gpu"));
  EXPECT_EQ(f.get("use_gpu"), "True");
  EXPECT_FALSE(f.get_bool("use_angle_cls"));
  EXPECT_EQ(f.get("use_angle_cls"), "False");
  EXPECT_EQ(f.get_int_list("rec_image_shape"), (std::vector<int>{3, 48, 320}));
  EXPECT_FALSE(f.was_set("use_gpu"));
  EXPECT_FALSE(f.help_requested());
}

TEST(FlagSet, AcceptsPaddleStyleBooleans) {
  FlagSet f = make_flags();
  f.parse({"--use_gpu=False"});
  EXPECT_FALSE(f.get_bool("use_gpu"));
  EXPECT_EQ(f.get("use_gpu"), "False");
  EXPECT_TRUE(f.was_set("use_gpu"));

  FlagSet g = make_flags();
  g.parse({"--use_gpu=0", "--use_angle_cls=1"});
  EXPECT_FALSE(g.get_bool("use_gpu"));
  EXPECT_TRUE(g.get_bool("use_angle_cls"));
}

TEST(FlagSet, EqualsValueWithSpacesIsOneArgument) {
  // What the shell passes for --rec_image_shape="3, 48, 320".
  FlagSet f = make_flags();
  f.parse({"--rec_image_shape=3, 32, 100"});
  EXPECT_EQ(f.get("rec_image_shape"), "3, 32, 100");
  EXPECT_EQ(f.get_int_list("rec_image_shape"), (std::vector<int>{3, 32, 100}));
  EXPECT_TRUE(f.was_set("rec_image_shape"));
}

TEST(FlagSet, EqualsValueMayItselfContainEquals) {
  FlagSet f = make_flags();
  f.parse({"--image_dir=a=b.jpg"});
  EXPECT_EQ(f.get("image_dir"), "a=b.jpg");
}

TEST(FlagSet, BoolFlagTakesFollowingBooleanValue) {
  FlagSet f = make_flags();
  const Strings pos = f.parse({"--use_angle_cls", "true", "--use_gpu", "False"});
  EXPECT_TRUE(pos.empty());
  EXPECT_TRUE(f.get_bool("use_angle_cls"));
  EXPECT_FALSE(f.get_bool("use_gpu"));
}

TEST(FlagSet, BareBoolFlagFollowedByAnotherFlagMeansTrue) {
  FlagSet f = make_flags();
  f.parse({"--use_angle_cls", "--drop_score", "0.7"});
  EXPECT_TRUE(f.get_bool("use_angle_cls"));
  EXPECT_TRUE(f.was_set("use_angle_cls"));
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.7);
}

TEST(FlagSet, BareBoolFlagAsLastArgumentMeansTrue) {
  FlagSet f = make_flags();
  f.parse({"--drop_score=0.1", "--use_angle_cls"});
  EXPECT_TRUE(f.get_bool("use_angle_cls"));
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.1);
}

TEST(FlagSet, BareBoolFlagDoesNotSwallowPositional) {
  FlagSet f = make_flags();
  const Strings pos = f.parse({"--use_angle_cls", "img.jpg"});
  EXPECT_TRUE(f.get_bool("use_angle_cls"));
  EXPECT_EQ(pos, Strings{"img.jpg"});
}

TEST(FlagSet, TextFlagTakesSeparateValue) {
  FlagSet f = make_flags();
  f.parse({"--drop_score", "0.6", "--det_db_thresh", "-0.25"});
  EXPECT_EQ(f.get("drop_score"), "0.6");
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.6);
  // A value that starts with '-' is still taken as the value.
  EXPECT_DOUBLE_EQ(f.get_double("det_db_thresh"), -0.25);
}

TEST(FlagSet, SingleDashFlagsAreAccepted) {
  FlagSet f = make_flags();
  f.parse({"-drop_score=0.9"});
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.9);
}

TEST(FlagSet, LaterValueWins) {
  FlagSet f = make_flags();
  f.parse({"--drop_score=0.1", "--drop_score=0.2"});
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.2);
}

TEST(FlagSet, UnknownFlagThrowsWithDidYouMeanHint) {
  FlagSet f = make_flags();
  const std::string msg = usage_error_of(f, {"--det_db_tresh=0.4"});
  ASSERT_FALSE(msg.empty()) << "expected UsageError";
  EXPECT_NE(msg.find("--det_db_tresh"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean --det_db_thresh"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ocr"), std::string::npos) << msg;
}

TEST(FlagSet, UnknownUnrelatedFlagThrowsWithoutHint) {
  FlagSet f = make_flags();
  const std::string msg = usage_error_of(f, {"--completely_unrelated_option"});
  ASSERT_FALSE(msg.empty()) << "expected UsageError";
  EXPECT_NE(msg.find("--completely_unrelated_option"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("did you mean"), std::string::npos) << msg;
}

TEST(FlagSet, TextFlagWithoutValueThrows) {
  FlagSet f = make_flags();
  const std::string msg = usage_error_of(f, {"--use_gpu=False", "--drop_score"});
  ASSERT_FALSE(msg.empty()) << "expected UsageError";
  EXPECT_NE(msg.find("--drop_score"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs a value"), std::string::npos) << msg;
}

TEST(FlagSet, InvalidBoolValueThrowsNamingTheFlag) {
  FlagSet f = make_flags();
  const std::string msg = usage_error_of(f, {"--use_gpu=maybe"});
  ASSERT_FALSE(msg.empty()) << "expected UsageError";
  EXPECT_NE(msg.find("--use_gpu"), std::string::npos) << msg;
  EXPECT_NE(msg.find("maybe"), std::string::npos) << msg;

  FlagSet g = make_flags();
  EXPECT_THROW(g.parse({"--use_gpu="}), UsageError);
}

TEST(FlagSet, TypedGettersNameTheFlagOnBadValues) {
  FlagSet f = make_flags();
  f.parse({"--rec_batch_num=six"});
  try {
    f.get_int("rec_batch_num");
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--rec_batch_num"), std::string::npos) << e.what();
  }
}

TEST(FlagSet, UndeclaredFlagLookupThrowsError) {
  FlagSet f = make_flags();
  EXPECT_THROW(f.get("nope"), ocrforge::Error);
  EXPECT_THROW(f.was_set("nope"), ocrforge::Error);
}

TEST(FlagSet, WasSetTracksOnlyPassedFlags) {
  FlagSet f = make_flags();
  // Passing the default value still counts as set.
  f.parse({"--drop_score=0.5"});
  EXPECT_TRUE(f.was_set("drop_score"));
  EXPECT_FALSE(f.was_set("det_db_thresh"));
  EXPECT_FALSE(f.was_set("use_gpu"));
}

TEST(FlagSet, PositionalArgumentsAreReturnedInOrder) {
  FlagSet f = make_flags();
  const Strings pos = f.parse({"a.jpg", "--use_gpu=False", "b.png", "-", "--drop_score", "0.2", "c"});
  EXPECT_EQ(pos, (Strings{"a.jpg", "b.png", "-", "c"}));
  EXPECT_FALSE(f.get_bool("use_gpu"));
  EXPECT_DOUBLE_EQ(f.get_double("drop_score"), 0.2);
}

TEST(FlagSet, ShortAndLongHelpSetHelpRequested) {
  FlagSet f = make_flags();
  EXPECT_TRUE(f.parse({"-h"}).empty());
  EXPECT_TRUE(f.help_requested());

  FlagSet g = make_flags();
  g.parse({"--use_gpu=False", "--help"});
  EXPECT_TRUE(g.help_requested());
  EXPECT_FALSE(g.get_bool("use_gpu"));
}

TEST(FlagSet, HelpTextListsFlagsWithDefaultsInDeclarationOrder) {
  FlagSet f = make_flags();
  f.parse({"--drop_score=0.9"});  // current values do not change the listed defaults
  const std::string help = f.help_text();
  EXPECT_NE(help.find("ocrforge ocr"), std::string::npos) << help;
  EXPECT_NE(help.find("--det_db_thresh [0.3]"), std::string::npos) << help;
  EXPECT_NE(help.find("--drop_score [0.5]"), std::string::npos) << help;
  EXPECT_EQ(help.find("[0.9]"), std::string::npos) << help;
  EXPECT_NE(help.find("--rec_image_shape [3, 48, 320]"), std::string::npos) << help;
  EXPECT_NE(help.find("--use_gpu [True]"), std::string::npos) << help;
  EXPECT_NE(help.find("--use_angle_cls [False]"), std::string::npos) << help;
  EXPECT_NE(help.find("pixel threshold of the DB map"), std::string::npos) << help;
  EXPECT_LT(help.find("--image_dir"), help.find("--det_db_thresh"));
  EXPECT_LT(help.find("--rec_batch_num"), help.find("--use_gpu"));
}

TEST(FlagSet, ValuesReportsEveryFlag) {
  FlagSet f = make_flags();
  f.parse({"--use_gpu=False"});
  const auto v = f.values();
  EXPECT_EQ(v.size(), 7u);
  EXPECT_EQ(v.at("use_gpu"), "False");
  EXPECT_EQ(v.at("det_db_thresh"), "0.3");
}

TEST(FlagSet, RangeGettersRefuseValuesOutsideTheirRange) {
  FlagSet f("t");
  f.add("side", "960", "");
  f.add("score", "0.5", "");
  f.add("ratio", "1.5", "");
  f.add("pixels", "50000000", "");
  f.parse({"--side=0", "--score=2", "--ratio=-1", "--pixels=5000000000"});
  try {
    f.get_int_at_least("side", 1);
    FAIL() << "--side=0 accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--side=0 is out of range: it must be >= 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(f.get_double_in("score", 0, 1), UsageError);
  EXPECT_THROW(f.get_double_above("ratio", 0), UsageError);
  EXPECT_EQ(f.get_int64_at_least("pixels", 0), 5000000000LL);
  FlagSet g("t");
  g.add("score", "0.5", "");
  g.add("ratio", "1.5", "");
  g.parse({"--score=nan", "--ratio=inf"});
  EXPECT_THROW(g.get_double_in("score", 0, 1), UsageError) << "NaN must not pass a range check";
  EXPECT_THROW(g.get_double_above("ratio", 0), UsageError);
  FlagSet ok("t");
  ok.add("score", "1", "");
  EXPECT_DOUBLE_EQ(ok.get_double_in("score", 0, 1), 1.0) << "bounds are inclusive";
}
