// The one table of OCR parameters: flags are declared and read from it with
// its defaults and ranges, and a request's range is never wider than a run's.
#include "ocrforge/infer/ocr_param_table.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/infer/ocr_flags.h"

using namespace ocrforge;

namespace {

OcrParams params_from(const std::vector<std::string>& args) {
  FlagSet f("ocr");
  declare_ocr_flags(f);
  f.parse(args);
  return ocr_params_from_flags(f);
}

}  // namespace

TEST(OcrParamTable, EveryFlagIsDeclaredWithTheTablesDefault) {
  FlagSet f("ocr");
  declare_ocr_flags(f);
  const OcrParams d = default_ocr_params();
  ASSERT_GE(ocr_param_table().size(), 10u);
  for (const auto& spec : ocr_param_table()) EXPECT_EQ(f.get(spec.flag), spec.get(d)) << spec.flag;
  // Read back with no flags given, every entry keeps its default.
  f.parse({});
  const OcrParams p = ocr_params_from_flags(f);
  for (const auto& spec : ocr_param_table()) EXPECT_EQ(spec.get(p), spec.get(d)) << spec.flag;
}

TEST(OcrParamTable, FlagsSetTheirPlaceAndOnlyIt) {
  const OcrParams d = default_ocr_params();
  const OcrParams p = params_from({"--det_db_box_thresh", "0.25", "--det_limit_type", "min", "--rec_batch_num", "3",
                                   "--use_angle_cls", "True"});
  EXPECT_FLOAT_EQ(p.det.post.box_thresh, 0.25f);
  EXPECT_EQ(p.det.resize.limit_type, DetLimitType::Min);
  EXPECT_EQ(p.rec.batch_num, 3);
  EXPECT_TRUE(p.use_angle_cls);
  EXPECT_FLOAT_EQ(p.det.post.thresh, d.det.post.thresh);
  EXPECT_EQ(p.cls.batch_num, d.cls.batch_num);
}

TEST(OcrParamTable, RangesAreCheckedWithTheirWording) {
  const auto msg = [](const std::vector<std::string>& args) {
    try {
      params_from(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(msg({"--det_db_unclip_ratio", "11"}), "--det_db_unclip_ratio=11 is out of range: it must be > 0 and <= 10");
  EXPECT_EQ(msg({"--det_db_unclip_ratio", "0"}), "--det_db_unclip_ratio=0 is out of range: it must be > 0 and <= 10");
  EXPECT_EQ(msg({"--det_db_thresh", "1.5"}), "--det_db_thresh=1.5 is out of range: it must be >= 0 and <= 1");
  EXPECT_EQ(msg({"--det_limit_side_len", "0"}), "--det_limit_side_len=0 is out of range: it must be an integer >= 1");
  EXPECT_EQ(msg({"--det_box_type", "circle"}), "--det_box_type must be quad or poly, got 'circle'");
}

TEST(OcrParamTable, RequestRangesAreInsideRunRanges) {
  for (const auto& s : ocr_param_table()) {
    EXPECT_GE(s.request_min, s.min) << s.flag;
    EXPECT_LE(s.request_max, s.max) << s.flag;
  }
  const OcrParamSpec* side = find_request_param("textDetLimitSideLen");
  ASSERT_NE(side, nullptr);
  EXPECT_EQ(side->flag, "det_limit_side_len");
  EXPECT_EQ(check_param_value(*side, 4096, false), "");
  EXPECT_EQ(check_param_value(*side, 4096, true), "must be an integer in 32..2048");
  EXPECT_EQ(check_param_value(*side, 31, true), "must be an integer in 32..2048");
  EXPECT_EQ(check_param_value(*side, 64.5, true), "must be an integer in 32..2048");
  EXPECT_EQ(check_param_value(*side, 64, true), "");
  EXPECT_NE(check_param_value(*find_request_param("textDetThresh"), std::nan(""), true), "");
  EXPECT_EQ(check_param_choice(*find_request_param("textDetLimitType"), "both"), "must be \"max\" or \"min\"");
  EXPECT_EQ(find_request_param("det_limit_side_len"), nullptr);  // flags are not request fields
  EXPECT_EQ(find_ocr_param("textDetLimitSideLen"), nullptr);
}

TEST(OcrParamTable, NamesAreUniqueInEveryFrontEnd) {
  std::set<std::string> flags, keywords, fields;
  for (const auto& s : ocr_param_table()) {
    EXPECT_TRUE(flags.insert(s.flag).second) << s.flag;
    if (!s.keyword3.empty()) EXPECT_TRUE(keywords.insert(s.keyword3).second) << s.keyword3;
    if (!s.request_field.empty()) EXPECT_TRUE(fields.insert(s.request_field).second) << s.request_field;
  }
}
