#include "ocrforge/infer/ocr_param_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "ocrforge/vision/db_postprocess.h"

namespace ocrforge {

namespace {

using Kind = OcrParamSpec::Kind;

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

// Entry builders: each names the value's place in OcrParams once, for get and set.
template <typename Field>
OcrParamSpec number_param(std::string flag, std::string kw3, std::string field, Kind kind, double min, double max,
                          bool min_open, std::string help, Field field_of) {
  OcrParamSpec s;
  s.flag = std::move(flag);
  s.keyword3 = std::move(kw3);
  s.request_field = std::move(field);
  s.kind = kind;
  s.min = min;
  s.max = max;
  s.min_open = min_open;
  s.request_min = min;
  s.request_max = max;
  s.help = std::move(help);
  s.get = [field_of, kind](const OcrParams& p) {
    const double v = static_cast<double>(*field_of(const_cast<OcrParams&>(p)));
    return kind == Kind::Bool ? std::string(v != 0 ? "True" : "False") : number_text(v);
  };
  s.set = [field_of](OcrParams& p, double v, const std::string&) {
    using T = std::remove_reference_t<decltype(*field_of(p))>;
    *field_of(p) = static_cast<T>(v);
  };
  return s;
}

template <typename Enum>
OcrParamSpec choice_param(std::string flag, std::string kw3, std::string field, std::vector<std::string> choices,
                          std::vector<Enum> values, std::string help, std::function<Enum*(OcrParams&)> field_of) {
  OcrParamSpec s;
  s.flag = std::move(flag);
  s.keyword3 = std::move(kw3);
  s.request_field = std::move(field);
  s.kind = Kind::Choice;
  s.choices = choices;
  s.help = std::move(help);
  s.get = [field_of, choices, values](const OcrParams& p) {
    const Enum v = *field_of(const_cast<OcrParams&>(p));
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i] == v) return choices[i];
    return choices.front();
  };
  s.set = [field_of, choices, values](OcrParams& p, double, const std::string& c) {
    const size_t i = static_cast<size_t>(std::find(choices.begin(), choices.end(), c) - choices.begin());
    if (i < values.size()) *field_of(p) = values[i];
  };
  return s;
}

std::vector<OcrParamSpec> make_table() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<OcrParamSpec> t;
  t.push_back(number_param("det_limit_side_len", "text_det_limit_side_len", "textDetLimitSideLen", Kind::Int, 1, inf,
                           false, "side length limit of the detector input",
                           [](OcrParams& p) { return &p.det.resize.limit_side_len; }));
  // A request's side is bounded: with limit type "min" it is a floor a tiny
  // image is enlarged to, so it bounds the detector input a request can make.
  t.back().request_min = 32;
  t.back().request_max = 2048;
  t.push_back(choice_param<DetLimitType>("det_limit_type", "text_det_limit_type", "textDetLimitType", {"max", "min"},
                                         {DetLimitType::Max, DetLimitType::Min},
                                         "max: longer side <= limit; min: shorter side >= limit",
                                         [](OcrParams& p) { return &p.det.resize.limit_type; }));
  t.push_back(number_param("det_max_side_limit", "text_det_max_side_limit", "", Kind::Int, 1, inf, false,
                           "cap on the longer side of the detector input",
                           [](OcrParams& p) { return &p.det.resize.max_side_limit; }));
  t.push_back(number_param("det_db_thresh", "text_det_thresh", "textDetThresh", Kind::Number, 0, 1, false,
                           "binarisation threshold of the probability map",
                           [](OcrParams& p) { return &p.det.post.thresh; }));
  t.push_back(number_param("det_db_box_thresh", "text_det_box_thresh", "textDetBoxThresh", Kind::Number, 0, 1, false,
                           "minimum box score", [](OcrParams& p) { return &p.det.post.box_thresh; }));
  t.push_back(number_param("det_db_unclip_ratio", "text_det_unclip_ratio", "textDetUnclipRatio", Kind::Number, 0,
                           kMaxUnclipRatio, true, "box expansion ratio (PaddleOCR's configs use 1.5 to 4)",
                           [](OcrParams& p) { return &p.det.post.unclip_ratio; }));
  t.push_back(number_param("use_dilation", "", "", Kind::Bool, 0, 1, false, "dilate the binary map (2x2)",
                           [](OcrParams& p) { return &p.det.post.use_dilation; }));
  t.push_back(choice_param<DbScoreMode>("det_db_score_mode", "", "", {"fast", "slow"},
                                        {DbScoreMode::Fast, DbScoreMode::Slow},
                                        "fast: score inside the box; slow: inside the contour",
                                        [](OcrParams& p) { return &p.det.post.score_mode; }));
  t.push_back(choice_param<DetBoxType>("det_box_type", "", "", {"quad", "poly"}, {DetBoxType::Quad, DetBoxType::Poly},
                                       "quad or poly", [](OcrParams& p) { return &p.det.post.box_type; }));
  t.push_back(number_param("rec_batch_num", "text_recognition_batch_size", "", Kind::Int, 1, inf, false,
                           "crops per recognition model call (only crops of equal input width share one, so "
                           "results never depend on it)",
                           [](OcrParams& p) { return &p.rec.batch_num; }));
  t.push_back(number_param("rec_min_width", "", "", Kind::Int, 0, inf, false,
                           "narrowest recognition input, capped at the rec_image_shape width: narrower crops are "
                           "padded to it (0: that width, PaddleOCR's rule; the default read more words on whole "
                           "pages and is faster, docs/benchmarks.md)",
                           [](OcrParams& p) { return &p.rec.min_width; }));
  t.push_back(number_param("rec_lexicon_weight", "", "", Kind::Number, 0, 50, false,
                           "with --rec_lexicon: log-probability (nats) a listed word is worth against what the "
                           "model read; higher changes more words",
                           [](OcrParams& p) { return &p.rec.lexicon_weight; }));
  t.push_back(number_param("use_space_char", "", "", Kind::Bool, 0, 1, false,
                           "the dictionary is followed by a space class",
                           [](OcrParams& p) { return &p.rec.use_space_char; }));
  t.push_back(number_param("drop_score", "text_rec_score_thresh", "textRecScoreThresh", Kind::Number, 0, 1, false,
                           "lines with a lower recognition score are dropped",
                           [](OcrParams& p) { return &p.drop_score; }));
  t.push_back(number_param("use_angle_cls", "use_textline_orientation", "useTextlineOrientation", Kind::Bool, 0, 1,
                           false, "run the 0/180 degree direction classifier",
                           [](OcrParams& p) { return &p.use_angle_cls; }));
  t.push_back(number_param("cls_batch_num", "textline_orientation_batch_size", "", Kind::Int, 1, inf, false,
                           "crops per classifier batch", [](OcrParams& p) { return &p.cls.batch_num; }));
  t.push_back(number_param("cls_thresh", "", "", Kind::Number, 0, 1, false, "rotate when the 180 score exceeds this",
                           [](OcrParams& p) { return &p.cls.thresh; }));
  return t;
}

}  // namespace

const std::vector<OcrParamSpec>& ocr_param_table() {
  static const std::vector<OcrParamSpec> table = make_table();
  return table;
}

const OcrParamSpec* find_ocr_param(const std::string& flag) {
  for (const auto& s : ocr_param_table())
    if (s.flag == flag) return &s;
  return nullptr;
}

const OcrParamSpec* find_request_param(const std::string& field) {
  for (const auto& s : ocr_param_table())
    if (!s.request_field.empty() && s.request_field == field) return &s;
  return nullptr;
}

std::string check_param_value(const OcrParamSpec& s, double v, bool per_request) {
  const double lo = per_request ? std::max(s.min, s.request_min) : s.min;
  const double hi = per_request ? std::min(s.max, s.request_max) : s.max;
  const bool whole = s.kind == Kind::Int || s.kind == Kind::Bool;
  std::string range;
  if (std::isfinite(lo) && std::isfinite(hi) && !s.min_open && whole) {
    range = "an integer in " + number_text(lo) + ".." + number_text(hi);
  } else {
    range = whole ? "an integer " : "";
    if (std::isfinite(lo)) range += (s.min_open && lo == s.min ? "> " : ">= ") + number_text(lo);
    if (std::isfinite(hi)) range += (std::isfinite(lo) ? " and <= " : "<= ") + number_text(hi);
  }
  const bool bad = !std::isfinite(v) || (whole && v != std::floor(v)) || v < lo ||
                   (s.min_open && lo == s.min && v <= lo) || v > hi;
  return bad ? "must be " + range : "";
}

std::string check_param_choice(const OcrParamSpec& s, const std::string& c, bool quoted) {
  if (std::find(s.choices.begin(), s.choices.end(), c) != s.choices.end()) return "";
  std::string list;
  for (size_t i = 0; i < s.choices.size(); ++i)
    list += (i == 0 ? "" : i + 1 == s.choices.size() ? " or " : ", ") + (quoted ? "\"" + s.choices[i] + "\"" : s.choices[i]);
  return "must be " + list;
}

}  // namespace ocrforge
