#include "ocrforge/serve/paddlex_api.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "ocrforge/core/json_bounded.h"
#include "ocrforge/infer/ocr_param_table.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/serve/http_error.h"

namespace ocrforge {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// The fields of the request itself; the OCR parameters' fields come from
// ocr_param_table() (their names, ranges and where they go).
static const char* kRequestFields[] = {"file", "fileType", "visualize", "useDocOrientationClassify", "useDocUnwarping"};

static std::vector<std::string> known_fields() {
  std::vector<std::string> out(std::begin(kRequestFields), std::end(kRequestFields));
  for (const auto& spec : ocr_param_table())
    if (!spec.request_field.empty()) out.push_back(spec.request_field);
  return out;
}

static std::string field_list() {
  std::string s;
  for (const auto& f : known_fields()) s += (s.empty() ? "" : ", ") + f;
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

// Applies the table's request field `spec` from `body` (absent or null:
// the server's value stays); 422 for a mistyped or out-of-range value.
static void apply_field(const json& body, const OcrParamSpec& spec, OcrParams& p) {
  const json* v = field(body, spec.request_field.c_str());
  if (!v) return;
  using Kind = OcrParamSpec::Kind;
  const std::string& name = spec.request_field;
  if (spec.kind == Kind::Choice) {
    const std::string why = v->is_string() ? check_param_choice(spec, v->get<std::string>()) : check_param_choice(spec, "");
    if (!why.empty()) throw HttpError(422, name + " " + why + ", got " + json_excerpt(*v));
    spec.set(p, 0, v->get<std::string>());
    return;
  }
  if (spec.kind == Kind::Bool) {
    if (!v->is_boolean()) throw HttpError(422, name + " must be true, false or null, got " + json_excerpt(*v));
    spec.set(p, v->get<bool>() ? 1 : 0, "");
    return;
  }
  if (!v->is_number()) throw HttpError(422, name + " must be a number or null, got " + json_excerpt(*v));
  const std::string why = check_param_value(spec, v->get<double>(), true);
  if (!why.empty()) throw HttpError(422, name + " " + why + ", got " + json_excerpt(*v));
  spec.set(p, v->get<double>(), "");
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
  static const std::vector<std::string> fields = known_fields();
  static const std::set<std::string> known(fields.begin(), fields.end());
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
    else throw HttpError(422, "Unsupported file type: the URL's extension ('" + ext + "') is neither a PDF's nor an "
                              "image's; set fileType (0 for a PDF, 1 for an image)");
  } else {
    throw HttpError(422, "File type cannot be determined: set fileType (0 for a PDF, 1 for an image) when file is Base64");
  }
  r.is_pdf = file_type == 0;

  if (const json* v = field(body, "visualize")) {
    if (!v->is_boolean()) throw HttpError(422, "visualize must be true, false or null, got " + json_excerpt(*v));
    r.visualize = v->get<bool>();
  }
  for (const char* name : {"useDocOrientationClassify", "useDocUnwarping"})
    if (get_bool(body, name, false))
      throw HttpError(422, std::string(name) + " is not supported: ocrforge has no document orientation / unwarping "
                           "model; send false or leave it out");

  // The server's settings, with each request field of the table applied.
  OcrParams p = params_with(OcrParams{}, defaults);
  for (const auto& spec : ocr_param_table())
    if (!spec.request_field.empty()) apply_field(body, spec, p);
  r.settings = run_params_of(p);
  return r;
}

std::string paddlex_response(const std::string& log_id, const std::vector<ImageOutcome>& pages,
                             const InputPages& input, const OcrParams& params) {
  ojson results = ojson::array(), sizes = ojson::array();
  for (const ImageOutcome& page : pages) {
    // PaddleX's prunedResult is the pipeline's "res" without input_path; the
    // same document `ocrforge ocr` writes as <stem>_res.json. page_index is
    // null as PaddleX's serving gives it (it hands the pipeline page images,
    // not the file): a page is known by its place in ocrResults.
    const ojson res = ojson::parse(result_json("", page.result, params)).at("res");
    ojson pruned;
    pruned["page_index"] = nullptr;
    for (const auto& item : res.items())
      if (item.key() != "input_path") pruned[item.key()] = item.value();
    ojson one;
    one["prunedResult"] = std::move(pruned);
    // Absent rather than null, as PaddleX (response_model_exclude_none);
    // docPreprocessingImage never: there is no document preprocessing here.
    if (!page.ocr_image.empty()) one["ocrImage"] = page.ocr_image;
    if (!page.input_image.empty()) one["inputImage"] = page.input_image;
    results.push_back(std::move(one));
    const cv::Size size = page.image.original.width > 0 ? page.image.original : page.result.image_size;
    sizes.push_back({{"width", size.width}, {"height", size.height}});
  }
  ojson info;
  if (input.type == InputPages::Type::pdf) {
    // PaddleX's PDFInfo: numPages counts the pages read (at most
    // max_num_input_imgs), pages their rendered sizes.
    info["numPages"] = sizes.size();
    info["pages"] = sizes;
    info["type"] = "pdf";
  } else {
    // PaddleX's ImageInfo: the (first) image's size. A TIFF of several pages
    // (PaddleX would read its first only) also lists its pages as a PDF's.
    info["width"] = sizes.empty() ? 0 : sizes[0]["width"].get<int>();
    info["height"] = sizes.empty() ? 0 : sizes[0]["height"].get<int>();
    info["type"] = "image";
    if (sizes.size() > 1 || input.more_pages) {
      info["numPages"] = sizes.size();
      info["pages"] = sizes;
    }
  }
  ojson out;
  out["logId"] = log_id;
  out["result"]["ocrResults"] = std::move(results);
  out["result"]["dataInfo"] = std::move(info);
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
