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
  EXPECT_FALSE(r.is_pdf);
  EXPECT_TRUE(parse_paddlex_request(R"({"file": "http://h/doc.PDF?sig=1"})", defaults()).is_pdf);
  EXPECT_FALSE(parse_paddlex_request(R"({"file": "http://h/doc.pdf", "fileType": 1})", defaults()).is_pdf)
      << "fileType says what the file is";
  EXPECT_TRUE(parse_paddlex_request(R"({"file": "http://h/scan.tif"})", defaults()).file_is_url);
  EXPECT_EQ(refusal(R"({"file": "http://h/page"})").first, 422);
}

// fileType 0 is a PDF (415 "not yet supported" before issue 50); the
// request's switches are range-checked for a PDF as for an image.
TEST(PaddlexApi, PdfRequestParsesWithItsSwitches) {
  const PaddlexRequest r = parse_paddlex_request(
      R"({"file": "JVBERi0=", "fileType": 0, "visualize": false, "textRecScoreThresh": 0.9})", defaults());
  EXPECT_TRUE(r.is_pdf);
  EXPECT_FALSE(r.file_is_url);
  EXPECT_FLOAT_EQ(r.settings.drop_score, 0.9f);
  EXPECT_EQ(refusal(R"({"file": "JVBERi0=", "fileType": 0, "textDetThresh": 1.5})").first, 422);
  EXPECT_EQ(refusal(R"({"file": "JVBERi0=", "fileType": 0, "textDetLimitSideLen": 4000})").first, 422);
  EXPECT_EQ(refusal(R"({"file": "JVBERi0=", "fileType": 0, "useDocUnwarping": true})").first, 422);
}

// useTextlineOrientation is PaddleX's use_textline_orientation: the
// text-line classifier on or off for this request; null or absent: the
// server's own setting (--use_angle_cls).
TEST(PaddlexApi, TextlineOrientationNullMeansTheServersSetting) {
  RunParams with_cls = defaults();
  with_cls.use_angle_cls = true;
  EXPECT_TRUE(parse_paddlex_request(R"({"file": "aGk=", "fileType": 1})", with_cls).settings.use_angle_cls);
  EXPECT_TRUE(parse_paddlex_request(R"({"file": "aGk=", "fileType": 1, "useTextlineOrientation": null})", with_cls)
                  .settings.use_angle_cls);
  EXPECT_FALSE(parse_paddlex_request(R"({"file": "aGk=", "fileType": 1, "useTextlineOrientation": false})", with_cls)
                   .settings.use_angle_cls);
  EXPECT_FALSE(parse_paddlex_request(R"({"file": "aGk=", "fileType": 1})", defaults()).settings.use_angle_cls);
  EXPECT_TRUE(parse_paddlex_request(R"({"file": "aGk=", "fileType": 1, "useTextlineOrientation": true})", defaults())
                  .settings.use_angle_cls);
  EXPECT_EQ(refusal(R"({"file": "aGk=", "fileType": 1, "useTextlineOrientation": 1})").first, 422);
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
      {R"({"file": "aGVsbG8=", "fileType": -1})", 422, "fileType must be 0 (PDF), 1 (image) or null"},
      {R"({"file": "aGVsbG8=", "fileType": "pdf"})", 422, "fileType must be 0 (PDF)"},
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

static ImageOutcome outcome_of(const std::string& text, cv::Size size) {
  ImageOutcome o;
  o.image.original = size;
  o.result.image_size = size;
  OcrLine line;
  line.box = {cv::Point2f(1, 2), cv::Point2f(30, 2), cv::Point2f(30, 12), cv::Point2f(1, 12)};
  line.polygon = {line.box.begin(), line.box.end()};
  line.text = text;
  line.score = 0.9f;
  line.det_score = 0.8f;
  o.result.detected = {line};
  o.result.lines = {line};
  return o;
}

TEST(PaddlexApi, ResponseHasPaddlexEnvelopeAndPrunedResult) {
  ImageOutcome o = outcome_of("HELLO", cv::Size(640, 480));
  OcrParams p;
  p.drop_score = 0.7f;
  InputPages image;
  image.pages = 1;
  const json r = json::parse(paddlex_response("id-1", {o}, image, p));
  EXPECT_EQ(r["logId"], "id-1");
  EXPECT_EQ(r["errorCode"], 0);
  EXPECT_EQ(r["errorMsg"], "Success");
  ASSERT_EQ(r["result"]["ocrResults"].size(), 1u);
  const json& one = r["result"]["ocrResults"][0];
  EXPECT_FALSE(one.contains("ocrImage")) << "absent, not null, without visualisation (PaddleX excludes None)";
  EXPECT_FALSE(one.contains("docPreprocessingImage"));
  const json& pr = one["prunedResult"];
  EXPECT_FALSE(pr.contains("input_path"));
  EXPECT_TRUE(pr.contains("page_index") && pr["page_index"].is_null());
  EXPECT_EQ(pr["rec_texts"], json::array({"HELLO"}));
  EXPECT_EQ(pr["rec_polys"], json::parse("[[[1,2],[30,2],[30,12],[1,12]]]"));
  EXPECT_EQ(pr["dt_polys"].size(), 1u);
  EXPECT_NEAR(pr["text_rec_score_thresh"].get<double>(), 0.7, 1e-6);
  EXPECT_EQ(r["result"]["dataInfo"], json::parse(R"({"width": 640, "height": 480, "type": "image"})"));
  o.ocr_image = "T0NS";
  o.input_image = "SU5Q";
  const json withimg = json::parse(paddlex_response("id-2", {o}, image, p));
  EXPECT_EQ(withimg["result"]["ocrResults"][0]["ocrImage"], "T0NS");
  EXPECT_EQ(withimg["result"]["ocrResults"][0]["inputImage"], "SU5Q");

  const json e = json::parse(paddlex_error("id-3", 422, "bad"));
  EXPECT_EQ(e, json::parse(R"({"logId": "id-3", "errorCode": 422, "errorMsg": "bad"})"));
}

// A PDF: one ocrResults entry per page, in order, and PaddleX's PDFInfo
// (numPages, pages, type "pdf"); a multi-page TIFF: ImageInfo of its first
// page, with the page list beside it.
TEST(PaddlexApi, DocumentResponseHasOneResultPerPageAndPdfInfo) {
  const std::vector<ImageOutcome> pages = {outcome_of("ONE", {100, 200}), outcome_of("TWO", {300, 400}),
                                           outcome_of("THREE", {50, 60})};
  InputPages pdf;
  pdf.type = InputPages::Type::pdf;
  pdf.pages = 3;
  const std::string raw = paddlex_response("id", pages, pdf, OcrParams{});
  const json r = json::parse(raw);
  const json& results = r["result"]["ocrResults"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["prunedResult"]["rec_texts"], json::array({"ONE"}));
  EXPECT_EQ(results[1]["prunedResult"]["rec_texts"], json::array({"TWO"}));
  EXPECT_EQ(results[2]["prunedResult"]["rec_texts"], json::array({"THREE"}));
  EXPECT_EQ(results[1]["prunedResult"]["image_size"], json::parse("[300, 400]"));
  EXPECT_EQ(r["result"]["dataInfo"], json::parse(R"({"numPages": 3, "pages": [{"width": 100, "height": 200},
      {"width": 300, "height": 400}, {"width": 50, "height": 60}], "type": "pdf"})"));
  // PaddleX's key order (its pydantic models'): ocrResults before dataInfo;
  // numPages, pages, type.
  EXPECT_NE(raw.find(R"("dataInfo":{"numPages":3,"pages":[{"width":100,"height":200})"), std::string::npos) << raw;
  EXPECT_LT(raw.find("\"ocrResults\""), raw.find("\"dataInfo\""));

  InputPages tiff;
  tiff.type = InputPages::Type::tiff;
  tiff.pages = 2;
  const json t = json::parse(paddlex_response("id", {pages[0], pages[1]}, tiff, OcrParams{}));
  EXPECT_EQ(t["result"]["ocrResults"].size(), 2u);
  EXPECT_EQ(t["result"]["dataInfo"], json::parse(R"({"width": 100, "height": 200, "type": "image", "numPages": 2,
      "pages": [{"width": 100, "height": 200}, {"width": 300, "height": 400}]})"));
  tiff.pages = 1;  // a TIFF of one page is an image
  EXPECT_EQ(json::parse(paddlex_response("id", {pages[2]}, tiff, OcrParams{}))["result"]["dataInfo"],
            json::parse(R"({"width": 50, "height": 60, "type": "image"})"));
}
