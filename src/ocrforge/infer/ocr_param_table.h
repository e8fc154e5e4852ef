// One table of the OCR parameters a caller may set for a run or for one
// request: each entry is a parameter's name in every front end (the
// `ocrforge ocr` flag, which Python's 2.x keywords map onto; PaddleOCR 3.x's
// keyword; PaddleX's /ocr request field), its kind, its range (for a run, and
// the narrower one a request may ask for), its default (read from
// default_ocr_params(), so it is written once) and where it goes in
// OcrParams. ocr_flags.cpp declares and reads the flags from it, the server
// reads request fields with it: a new option is one entry here plus the code
// that uses it.
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ocrforge/infer/params.h"

namespace ocrforge {

struct OcrParamSpec {
  enum class Kind { Int, Number, Bool, Choice };
  std::string flag;           // "det_limit_side_len"
  std::string keyword3;       // PaddleOCR 3.x keyword ("text_det_limit_side_len"), "" if none
  std::string request_field;  // PaddleX /ocr field ("textDetLimitSideLen"), "" if a request cannot set it
  Kind kind = Kind::Number;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;  // the value must be > min (not >=)
  // Per request: where a request could otherwise ask for unbounded work
  // (a detector input side, say), a narrower range than a run's.
  double request_min = -std::numeric_limits<double>::infinity();
  double request_max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;  // Kind::Choice
  std::string help;
  // The value in `p` as text (the default, from default_ocr_params()).
  std::function<std::string(const OcrParams& p)> get;
  // Sets the value into `p`: a number for Int / Number / Bool (0 or 1), or
  // one of `choices`. Only called with a value that check() accepted.
  std::function<void(OcrParams& p, double number, const std::string& choice)> set;
};

// Every entry, in --help's order.
const std::vector<OcrParamSpec>& ocr_param_table();
// The entry of flag `flag` or of request field `field`; nullptr when none.
const OcrParamSpec* find_ocr_param(const std::string& flag);
const OcrParamSpec* find_request_param(const std::string& field);

// Why `number` is not a value of `spec` ("" when it is): out of its range
// (per_request: the request range too), or not whole for an Int. The text
// says the range ("must be an integer in 32..2048", "must be > 0 and <= 10").
std::string check_param_value(const OcrParamSpec& spec, double number, bool per_request);
// The same for a Choice ("must be \"max\" or \"min\""; unquoted: "must be max or min").
std::string check_param_choice(const OcrParamSpec& spec, const std::string& choice, bool quoted = true);

}  // namespace ocrforge
