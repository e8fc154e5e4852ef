// JSON read with a bound on nesting, for every JSON ocrforge reads from
// outside (request bodies, label files, checkpoint headers).
//
// nlohmann's parser keeps its own stack, so a document nested 60,000 deep
// parses; but much of what is done with a value afterwards recurses (dump()
// in an error message, copies, comparisons) and a deep enough one overflows
// the thread's stack. Bounding the depth where the text is read keeps every
// later use safe. Header-only on purpose: it needs nlohmann's types, which
// core's installed headers do not carry.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

// Nesting allowed by default: PaddleX / PaddleHub bodies and PaddleOCR's
// label files need 4 at most.
constexpr int kMaxJsonDepth = 64;

// A document nested deeper than allowed. `field` is the top-level key under
// which it happened ("" when the deep value is not inside an object).
class JsonTooDeepError : public Error {
 public:
  JsonTooDeepError(const std::string& what, std::string field) : Error(what), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// Parses `text`; throws JsonTooDeepError once an array or object opens
// deeper than `max_depth` (the top-level value is depth 1), before the rest
// is read, and nlohmann::json::exception for anything else that is wrong
// (syntax, a number out of double's range).
inline nlohmann::json parse_json_bounded(const std::string& text, int max_depth = kMaxJsonDepth) {
  std::string top_key;
  const nlohmann::json::parser_callback_t bound = [&](int depth, nlohmann::json::parse_event_t event,
                                                      nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::key && depth == 1) top_key = parsed.get<std::string>();
    if ((event == E::object_start || event == E::array_start) && depth >= max_depth)
      throw JsonTooDeepError((top_key.empty() ? std::string("the JSON") : "field '" + top_key + "'") +
                                 " nests arrays or objects deeper than " + std::to_string(max_depth) + " levels",
                             top_key);
    return true;
  };
  return nlohmann::json::parse(text, bound);
}

// A value for an error message: its JSON, cut to `max_chars` (a request may
// put megabytes in a field).
template <class Json>
std::string json_excerpt(const Json& value, size_t max_chars = 80) {
  std::string s = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "...";
  return s;
}

}  // namespace ocrforge
