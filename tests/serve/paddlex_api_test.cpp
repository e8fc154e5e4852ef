#include "ocrforge/serve/paddlex_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ocrforge/serve/http_error.h"

using namespace ocrforge;
using json = nlohmann::json;

static RunParams defaults() {
  RunParams s;
  s.det_resize.limit_side_len = 960;
  s.det_post.thresh = 0.3f;
  s.det_post.box_thresh = 0.6f;
  s.det_post.unclip_ratio = 1.5f;
  s.drop_score = 0.5f;
  return s;
}

// The status and message parse_paddlex_request answers `body` with (200: none).
static std::pair<int, std::string> refusal(const std::string& body) {
  try {
    parse_paddlex_request(body, defaults());
  } catch (const HttpError& e) {
    return {e.status(), e.what()};
  }
  return {200, ""};
}

TEST(PaddlexApi, DocumentedRequestParses) {
  // PaddleOCR's documented client: {"file": <Base64>, "fileType": 1}.
  const PaddlexRequest r = parse_paddlex_request(R"({"file": "aGVsbG8=", "fileType": 1})", defaults());
  EXPECT_EQ(r.file, "aGVsbG8=");
  EXPECT_FALSE(r.file_is_url);
  EXPECT_FALSE(r.visualize.has_value());
  EXPECT_EQ(r.settings.drop_score, 0.5f);
  EXPECT_EQ(r.settings.det_resize.limit_side_len, 960);
}

TEST(PaddlexApi, PipelineSwitchesSetTheRunSettings) {
  const PaddlexRequest r = parse_paddlex_request(
      R"({"file": "aGVsbG8=", "fileType": 1, "visualize": false, "useTextlineOrientation": true,
          "textDetLimitSideLen": 736, "textDetLimitType": "min", "textDetThresh": 0.2, "textDetBoxThresh": 0.4,
          "textDetUnclipRatio": 2.0, "textRecScoreThresh": 0.8, "useDocOrientationClassify": false,
          "useDocUnwarping": null})",
      defaults());
  EXPECT_EQ(r.visualize, false);
  EXPECT_TRUE(r.settings.use_angle_cls);
  EXPECT_EQ(r.settings.det_resize.limit_side_len, 736);
  EXPECT_EQ(r.settings.det_resize.limit_type, DetLimitType::Min);
  EXPECT_FLOAT_EQ(r.settings.det_post.thresh, 0.2f);
  EXPECT_FLOAT_EQ(r.settings.det_post.box_thresh, 0.4f);
  EXPECT_FLOAT_EQ(r.settings.det_post.unclip_ratio, 2.0f);
  EXPECT_FLOAT_EQ(r.settings.drop_score, 0.8f);
}

TEST(PaddlexApi, UrlsAreRecognisedAndTypedByExtension) {
  const PaddlexRequest r = parse_paddlex_request(R"({"file": "http://127.0.0.1:9/a/b.PNG?x=1"})", defaults());
  EXPECT_TRUE(r.file_is_url);
  EXPECT_EQ(refusal(R"({"file": "http://h/doc.pdf"})").first, 415);
  EXPECT_EQ(refusal(R"({"file": "http://h/page"})").first, 422);
}

TEST(PaddlexApi, BadRequestsGetTheirStatusAndAMessageNamingTheField) {
  const struct {
    const char* body;
    int status;
    const char* says;
  } cases[] = {
      {"{\"file\": \"aGVsbG8=\", ", 400, "not JSON"},
      {"[1, 2]", 422, "JSON object"},
      {R"({"fileType": 1})", 422, "'file' is required"},
      {R"({"file": 12, "fileType": 1})", 422, "'file' must be a string"},
      {R"({"file": "aGVsbG8="})", 422, "File type cannot be determined"},
      {R"({"file": "aGVsbG8=", "fileType": 2})", 422, "fileType"},
      {R"({"file": "aGVsbG8=", "fileType": 0})", 415, "PDF"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "useTextLineOrientation": true})", 422, "unknown field 'useTextLineOrientation'"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetThresh": 1.5})", 422, "textDetThresh"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetThresh": "0.3"})", 422, "textDetThresh must be a number"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetUnclipRatio": 0})", 422, "textDetUnclipRatio"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetLimitType": "mid"})", 422, "textDetLimitType"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetLimitSideLen": 0})", 422, "textDetLimitSideLen"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "visualize": "yes"})", 422, "visualize"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "useDocUnwarping": true})", 422, "useDocUnwarping is not supported"},
      // Beyond a double's range: nlohmann refuses it as out of range, which
      // must read as a bad request, not an internal error.
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetThresh": 1e400})", 400, "not JSON"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetUnclipRatio": 1e11})", 422, "textDetUnclipRatio"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetLimitSideLen": 4000})", 422, "textDetLimitSideLen must be an integer in 32..2048"},
      {R"({"file": "aGVsbG8=", "fileType": 1, "textDetLimitSideLen": 31})", 422, "textDetLimitSideLen"},
  };
  for (const auto& c : cases) {
    const auto [status, message] = refusal(c.body);
    EXPECT_EQ(status, c.status) << c.body << " -> " << message;
    EXPECT_NE(message.find(c.says), std::string::npos) << c.body << " -> " << message;
  }
}

// An array nested 60,000 deep in a typed field crashed the server (the
// error message dumped the value recursively). The depth is bounded where
// the body is read, and the answer names the field.
TEST(PaddlexApi, DeeplyNestedFieldIsRefusedNamingIt) {
  const std::string deep = std::string(60000, '[') + std::string(60000, ']');
  const auto [status, message] = refusal(R"({"file": "aGk=", "fileType": )" + deep + "}");
  EXPECT_EQ(status, 400) << message;
  EXPECT_NE(message.find("field 'fileType' nests arrays or objects deeper than"), std::string::npos) << message;
  // Within the bound, a wrong value is described, cut short.
  const std::string nested = std::string(30, '[') + std::string(30, ']');
  const auto [status2, message2] = refusal(R"({"file": "aGk=", "fileType": )" + nested + "}");
  EXPECT_EQ(status2, 422) << message2;
  EXPECT_LT(message2.size(), 200u) << message2;
}

TEST(PaddlexApi, ResponseHasPaddlexEnvelopeAndPrunedResult) {
  ImageOutcome o;
  o.image.original = cv::Size(640, 480);
  o.result.image_size = cv::Size(640, 480);
  OcrLine line;
  line.box = {cv::Point2f(1, 2), cv::Point2f(30, 2), cv::Point2f(30, 12), cv::Point2f(1, 12)};
  line.polygon = {line.box.begin(), line.box.end()};
  line.text = "HELLO";
  line.score = 0.9f;
  line.det_score = 0.8f;
  o.result.detected = {line};
  o.result.lines = {line};
  OcrParams p;
  p.drop_score = 0.7f;
  const json r = json::parse(paddlex_response("id-1", o, p, "", ""));
  EXPECT_EQ(r["logId"], "id-1");
  EXPECT_EQ(r["errorCode"], 0);
  EXPECT_EQ(r["errorMsg"], "Success");
  const json& one = r["result"]["ocrResults"][0];
  EXPECT_FALSE(one.contains("ocrImage")) << "absent, not null, without visualisation (PaddleX excludes None)";
  const json& pr = one["prunedResult"];
  EXPECT_FALSE(pr.contains("input_path"));
  EXPECT_TRUE(pr.contains("page_index") && pr["page_index"].is_null());
  EXPECT_EQ(pr["rec_texts"], json::array({"HELLO"}));
  EXPECT_EQ(pr["rec_polys"], json::parse("[[[1,2],[30,2],[30,12],[1,12]]]"));
  EXPECT_EQ(pr["dt_polys"].size(), 1u);
  EXPECT_NEAR(pr["text_rec_score_thresh"].get<double>(), 0.7, 1e-6);
  EXPECT_EQ(r["result"]["dataInfo"], json::parse(R"({"width": 640, "height": 480, "type": "image"})"));
  const json withimg = json::parse(paddlex_response("id-2", o, p, "T0NS", "SU5Q"));
  EXPECT_EQ(withimg["result"]["ocrResults"][0]["ocrImage"], "T0NS");
  EXPECT_EQ(withimg["result"]["ocrResults"][0]["inputImage"], "SU5Q");

  const json e = json::parse(paddlex_error("id-3", 422, "bad"));
  EXPECT_EQ(e, json::parse(R"({"logId": "id-3", "errorCode": 422, "errorMsg": "bad"})"));
}
