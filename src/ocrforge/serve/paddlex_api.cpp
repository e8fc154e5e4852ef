#include "ocrforge/serve/paddlex_api.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "ocrforge/core/json_bounded.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/serve/http_error.h"

namespace ocrforge {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

static const char* kFields[] = {"file", "fileType", "visualize", "useDocOrientationClassify", "useDocUnwarping",
                                "useTextlineOrientation", "textDetLimitSideLen", "textDetLimitType", "textDetThresh",
                                "textDetBoxThresh", "textDetUnclipRatio", "textRecScoreThresh"};

static std::string field_list() {
  std::string s;
  for (const char* f : kFields) s += (s.empty() ? "" : ", ") + std::string(f);
  return s;
}

static bool is_url(const std::string& s) { return s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0; }

static std::string lower_path_extension(const std::string& url) {
  std::string path = url.substr(0, url.find_first_of("?#"));
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// A null or absent field is "not given" (PaddleX's Optional[...] = None).
static const json* field(const json& body, const char* name) {
  const auto it = body.find(name);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

static bool get_bool(const json& body, const char* name, bool fallback) {
  const json* v = field(body, name);
  if (!v) return fallback;
  if (!v->is_boolean()) throw HttpError(422, std::string(name) + " must be true, false or null, got " + json_excerpt(*v));
  return v->get<bool>();
}

static double get_number(const json& body, const char* name, double fallback, double lo, double hi, bool open_lo) {
  const json* v = field(body, name);
  if (!v) return fallback;
  if (!v->is_number()) throw HttpError(422, std::string(name) + " must be a number or null, got " + json_excerpt(*v));
  const double x = v->get<double>();
  if ((open_lo ? !(x > lo) : !(x >= lo)) || x > hi)
    throw HttpError(422, std::string(name) + " must be " + (open_lo ? "> " : ">= ") + std::to_string(lo) +
                             (hi < 1e300 ? " and <= " + std::to_string(hi) : "") + ", got " + json_excerpt(*v));
  return x;
}

PaddlexRequest parse_paddlex_request(const std::string& body_text, const RunParams& defaults) {
  json body;
  try {
    body = parse_json_bounded(body_text);
  } catch (const JsonTooDeepError& e) {
    throw HttpError(400, std::string(e.what()) + "; send {\"file\": <Base64 or URL>, \"fileType\": 1}");
  } catch (const json::exception& e) {
    // Syntax errors, and numbers beyond a double's range (1e400).
    throw HttpError(400, std::string("the request body is not JSON this server can read (") + e.what() +
                             "); send {\"file\": <Base64 or URL>, \"fileType\": 1}");
  }
  if (!body.is_object()) throw HttpError(422, "the request body must be a JSON object, got " + std::string(body.type_name()));
  static const std::set<std::string> known(std::begin(kFields), std::end(kFields));
  for (const auto& item : body.items())
    if (!known.count(item.key()))
      throw HttpError(422, "unknown field '" + item.key() + "' (fields: " + field_list() + ")");

  PaddlexRequest r;
  const json* file = field(body, "file");
  if (!file) throw HttpError(422, "field 'file' is required: the Base64 of an image, or its URL");
  if (!file->is_string()) throw HttpError(422, "field 'file' must be a string (Base64 or URL), got " + std::string(file->type_name()));
  r.file = file->get<std::string>();
  r.file_is_url = is_url(r.file);

  int file_type = -1;
  if (const json* ft = field(body, "fileType")) {
    if (!ft->is_number_integer() || (ft->get<long>() != 0 && ft->get<long>() != 1))
      throw HttpError(422, "fileType must be 0 (PDF), 1 (image) or null, got " + json_excerpt(*ft));
    file_type = ft->get<int>();
  } else if (r.file_is_url) {
    // PaddleX infers the type from the URL's extension.
    static const std::set<std::string> images = {"jpg", "jpeg", "png", "bmp", "tif", "tiff", "webp", "jp2", "pbm", "pgm", "ppm"};
    const std::string ext = lower_path_extension(r.file);
    if (ext == "pdf") file_type = 0;
    else if (images.count(ext)) file_type = 1;
    else throw HttpError(422, "Unsupported file type: the URL's extension ('" + ext + "') is not an image's; set fileType 1");
  } else {
    throw HttpError(422, "File type cannot be determined: set fileType (1 for an image) when file is Base64");
  }
  if (file_type == 0)
    throw HttpError(415, "fileType 0 (PDF) is not yet supported by ocrforge serve; send each page as an image (fileType 1)");

  if (const json* v = field(body, "visualize")) {
    if (!v->is_boolean()) throw HttpError(422, "visualize must be true, false or null, got " + json_excerpt(*v));
    r.visualize = v->get<bool>();
  }
  for (const char* name : {"useDocOrientationClassify", "useDocUnwarping"})
    if (get_bool(body, name, false))
      throw HttpError(422, std::string(name) + " is not supported: ocrforge has no document orientation / unwarping "
                           "model; send false or leave it out");

  RunParams& s = r.settings;
  s = defaults;
  s.use_angle_cls = get_bool(body, "useTextlineOrientation", defaults.use_angle_cls);
  if (const json* v = field(body, "textDetLimitSideLen")) {
    if (!v->is_number_integer() || v->get<long>() < kMinRequestSideLen || v->get<long>() > kMaxRequestSideLen)
      throw HttpError(422, "textDetLimitSideLen must be an integer in " + std::to_string(kMinRequestSideLen) + ".." +
                               std::to_string(kMaxRequestSideLen) + ", got " + json_excerpt(*v));
    s.det_resize.limit_side_len = v->get<int>();
  }
  if (const json* v = field(body, "textDetLimitType")) {
    if (!v->is_string() || (v->get<std::string>() != "min" && v->get<std::string>() != "max"))
      throw HttpError(422, "textDetLimitType must be \"min\" or \"max\", got " + json_excerpt(*v));
    s.det_resize.limit_type = v->get<std::string>() == "max" ? DetLimitType::Max : DetLimitType::Min;
  }
  s.det_post.thresh = static_cast<float>(get_number(body, "textDetThresh", defaults.det_post.thresh, 0, 1, false));
  s.det_post.box_thresh = static_cast<float>(get_number(body, "textDetBoxThresh", defaults.det_post.box_thresh, 0, 1, false));
  s.det_post.unclip_ratio =
      static_cast<float>(get_number(body, "textDetUnclipRatio", defaults.det_post.unclip_ratio, 0, kMaxUnclipRatio, true));
  s.drop_score = static_cast<float>(get_number(body, "textRecScoreThresh", defaults.drop_score, 0, 1, false));
  return r;
}

OcrParams params_with(OcrParams p, const RunParams& s) {
  p.det.resize = s.det_resize;
  p.det.post = s.det_post;
  p.use_angle_cls = s.use_angle_cls;
  p.drop_score = s.drop_score;
  return p;
}

std::string paddlex_response(const std::string& log_id, const ImageOutcome& outcome, const OcrParams& params,
                             const std::string& ocr_image, const std::string& input_image) {
  // PaddleX's prunedResult is the pipeline's "res" without input_path; the
  // same document `ocrforge ocr` writes as <stem>_res.json.
  const ojson res = ojson::parse(result_json("", outcome.result, params)).at("res");
  ojson pruned;
  pruned["page_index"] = nullptr;
  for (const auto& item : res.items())
    if (item.key() != "input_path") pruned[item.key()] = item.value();
  ojson one;
  one["prunedResult"] = std::move(pruned);
  if (!ocr_image.empty()) one["ocrImage"] = ocr_image;
  if (!input_image.empty()) one["inputImage"] = input_image;
  ojson out;
  out["logId"] = log_id;
  out["result"]["ocrResults"] = ojson::array({std::move(one)});
  out["result"]["dataInfo"] = {{"width", outcome.image.original.width > 0 ? outcome.image.original.width
                                                                          : outcome.result.image_size.width},
                               {"height", outcome.image.original.height > 0 ? outcome.image.original.height
                                                                            : outcome.result.image_size.height},
                               {"type", "image"}};
  out["errorCode"] = 0;
  out["errorMsg"] = "Success";
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string paddlex_error(const std::string& log_id, int status, const std::string& message) {
  ojson out;
  out["logId"] = log_id;
  out["errorCode"] = status;
  out["errorMsg"] = message;
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ocrforge
