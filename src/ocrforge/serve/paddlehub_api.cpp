#include "ocrforge/serve/paddlehub_api.h"

#include <nlohmann/json.hpp>

#include "ocrforge/core/json_bounded.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/serve/base64.h"
#include "ocrforge/serve/http_error.h"

namespace ocrforge {

using json = nlohmann::json;

std::vector<ImageInput> parse_paddlehub_request(const std::string& text, int max_images) {
  json body;
  try {
    body = parse_json_bounded(text);
  } catch (const JsonTooDeepError& e) {
    throw HttpError(400, std::string(e.what()) + "; send {\"images\": [<Base64 of an image>, ...]}");
  } catch (const json::exception& e) {
    throw HttpError(400, std::string("the request body is not JSON (") + e.what() +
                             "); send {\"images\": [<Base64 of an image>, ...]} as application/json");
  }
  if (!body.is_object()) throw HttpError(422, "the request body must be a JSON object with \"images\"");
  for (const auto& item : body.items())
    if (item.key() != "images")
      throw HttpError(422, "unknown field '" + item.key() + "': ocr_system takes only \"images\" (a list of Base64 images)");
  const auto it = body.find("images");
  if (it == body.end() || !it->is_array() || it->empty())
    throw HttpError(422, "\"images\" must be a non-empty list of Base64-encoded images");
  if (it->size() > static_cast<size_t>(max_images))
    throw HttpError(422, "\"images\" holds " + std::to_string(it->size()) + " images; at most " +
                             std::to_string(max_images) + " per request (--max_request_images)");
  std::vector<ImageInput> out;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    const std::string name = "images[" + std::to_string(i) + "]";
    if (!v.is_string()) throw HttpError(422, name + " must be a Base64 string, got " + std::string(v.type_name()));
    std::string why;
    auto bytes = base64_decode(v.get_ref<const std::string&>(), &why);
    if (!bytes) throw HttpError(400, name + " is not valid Base64: " + why);
    out.push_back({std::move(*bytes), name});
  }
  return out;
}

std::string paddlehub_response(const std::vector<ImageOutcome>& outcomes) {
  // Flask's jsonify sorts keys; so do these (nlohmann::json is sorted).
  json results = json::array();
  for (const auto& o : outcomes) {
    json lines = json::array();
    for (const auto& l : o.result.lines)
      lines.push_back({{"text", l.text}, {"confidence", l.score}, {"text_region", int_points(l.polygon)}});
    results.push_back(std::move(lines));
  }
  return json{{"msg", ""}, {"results", std::move(results)}, {"status", "000"}}.dump(-1, ' ', false,
                                                                                       json::error_handler_t::replace);
}

std::string paddlehub_error(const std::string& status, const std::string& message) {
  return json{{"msg", message}, {"results", ""}, {"status", status}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ocrforge
