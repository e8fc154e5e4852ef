#include "ocrforge/serve/paddlehub_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ocrforge/serve/http_error.h"

using namespace ocrforge;
using json = nlohmann::json;

static int status_of(const std::string& body, int max_images = 3) {
  try {
    parse_paddlehub_request(body, max_images);
  } catch (const HttpError& e) {
    return e.status();
  }
  return 200;
}

TEST(PaddlehubApi, ImagesAreDecodedAndNamed) {
  const auto in = parse_paddlehub_request(R"({"images": ["aGVsbG8=", "d29ybGQ="]})", 3);
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].bytes, "hello");
  EXPECT_EQ(in[1].bytes, "world");
  EXPECT_EQ(in[1].name, "images[1]");
}

TEST(PaddlehubApi, BadRequestsGetTheirStatus) {
  EXPECT_EQ(status_of("images=abc"), 400);
  EXPECT_EQ(status_of(R"({"images": ["%%%"]})"), 400);
  EXPECT_EQ(status_of(R"({"images": []})"), 422);
  EXPECT_EQ(status_of(R"({"images": "aGVsbG8="})"), 422);
  EXPECT_EQ(status_of(R"({"images": [1]})"), 422);
  EXPECT_EQ(status_of(R"({"images": ["aGVsbG8="], "paths": ["/etc/passwd"]})"), 422);
  EXPECT_EQ(status_of(R"({"images": ["aGVsbG8=", "aGVsbG8="]})", 1), 422);
}

TEST(PaddlehubApi, ResponseIsPaddleHubsEnvelope) {
  ImageOutcome o;
  OcrLine line;
  line.polygon = {cv::Point2f(1.7f, 2), cv::Point2f(30, 2), cv::Point2f(30, 12), cv::Point2f(1, 12)};
  line.text = "EPPING";
  line.score = 0.99f;
  o.result.lines = {line};
  const json r = json::parse(paddlehub_response({o, ImageOutcome{}}));
  EXPECT_EQ(r["status"], "000");
  EXPECT_EQ(r["msg"], "");
  ASSERT_EQ(r["results"].size(), 2u);
  const json& first = r["results"][0][0];
  EXPECT_EQ(first["text"], "EPPING");
  EXPECT_NEAR(first["confidence"].get<double>(), 0.99, 1e-6);
  EXPECT_EQ(first["text_region"], json::parse("[[1,2],[30,2],[30,12],[1,12]]"));  // int32, truncated
  EXPECT_TRUE(r["results"][1].empty());
  EXPECT_EQ(json::parse(paddlehub_error("101", "why")), json::parse(R"({"msg": "why", "results": "", "status": "101"})"));
}
