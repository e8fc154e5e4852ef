// `ocrforge serve`'s three APIs answered for their documented clients, and
// the limits, keys, metrics and logs around them. Requests are built as the
// PaddleOCR docs' clients build them (PaddleX: {"file": b64, "fileType": 1};
// PaddleHub's tools/test_hubserving.py: {"images": [b64]}).
#include "ocrforge/serve/ocr_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/serve/base64.h"
#include "serve_test_support.h"

using namespace ocrforge;
using json = nlohmann::json;

static std::string sample(const std::string& name) { return test::read_text(test::data_dir() + "/samples/" + name); }

static json paddlex_body(const std::string& image, json extra = json::object()) {
  json body = {{"file", base64_encode(image)}, {"fileType", 1}};
  body.update(extra);
  return body;
}

static httplib::Result post_json(httplib::Client& c, const std::string& path, const json& body,
                                 const httplib::Headers& headers = {}) {
  return c.Post(path.c_str(), headers, body.dump(), "application/json");
}

static std::vector<std::string> texts_of(const json& pruned) {
  return pruned.at("rec_texts").get<std::vector<std::string>>();
}

TEST(OcrServer, PaddlexClientGetsTextsAndVisualisation) {
  test::TestServer s(test::test_options());
  auto c = s.client();
  auto res = post_json(c, "/ocr", paddlex_body(sample("imgs_ger_1.jpg")));
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  ASSERT_EQ(res->status, 200) << res->body;
  const json r = json::parse(res->body);
  EXPECT_EQ(r["errorCode"], 0);
  EXPECT_EQ(r["errorMsg"], "Success");
  EXPECT_EQ(r["logId"].get<std::string>().size(), 36u);
  EXPECT_EQ(res->get_header_value("X-Request-Id"), r["logId"]);
  ASSERT_EQ(r["result"]["ocrResults"].size(), 1u);
  const json& one = r["result"]["ocrResults"][0];
  const auto texts = texts_of(one["prunedResult"]);
  ASSERT_EQ(texts.size(), 3u);
  EXPECT_EQ(texts[0], "EPPING");
  EXPECT_EQ(one["prunedResult"]["rec_scores"].size(), 3u);
  EXPECT_EQ(one["prunedResult"]["rec_polys"].size(), 3u);
  EXPECT_EQ(r["result"]["dataInfo"], json::parse(R"({"width": 360, "height": 270, "type": "image"})"));
  // The documented client writes base64.b64decode(res["ocrImage"]) to ocr_0.jpg.
  const auto ocr_jpeg = base64_decode(one["ocrImage"].get<std::string>());
  ASSERT_TRUE(ocr_jpeg);
  const cv::Mat vis = cv::imdecode(std::vector<uchar>(ocr_jpeg->begin(), ocr_jpeg->end()), cv::IMREAD_COLOR);
  EXPECT_EQ(vis.size(), cv::Size(720, 270)) << "boxes left, text right";
  const auto input_jpeg = base64_decode(one["inputImage"].get<std::string>());
  ASSERT_TRUE(input_jpeg);
  EXPECT_EQ(cv::imdecode(std::vector<uchar>(input_jpeg->begin(), input_jpeg->end()), cv::IMREAD_COLOR).size(),
            cv::Size(360, 270));
}

TEST(OcrServer, PaddlexSwitchesApplyToThatRequestOnly) {
  test::TestServer s(test::test_options());
  auto c = s.client();
  const std::string img = sample("imgs_ger_1.jpg");
  auto strict = post_json(c, "/ocr", paddlex_body(img, {{"textRecScoreThresh", 1.0}, {"visualize", false}}));
  ASSERT_TRUE(strict);
  ASSERT_EQ(strict->status, 200) << strict->body;
  const json pruned = json::parse(strict->body)["result"]["ocrResults"][0]["prunedResult"];
  EXPECT_TRUE(texts_of(pruned).empty()) << "no score reaches 1.0";
  EXPECT_EQ(pruned["dt_polys"].size(), 3u) << "detection is unchanged";
  EXPECT_FALSE(json::parse(strict->body)["result"]["ocrResults"][0].contains("ocrImage"));
  auto normal = post_json(c, "/ocr", paddlex_body(img, {{"visualize", false}}));
  EXPECT_EQ(texts_of(json::parse(normal->body)["result"]["ocrResults"][0]["prunedResult"]).size(), 3u);
  auto cls = post_json(c, "/ocr", paddlex_body(img, {{"useTextlineOrientation", true}}));
  EXPECT_EQ(cls->status, 422);
  EXPECT_NE(json::parse(cls->body)["errorMsg"].get<std::string>().find("--use_angle_cls"), std::string::npos);
}

TEST(OcrServer, PaddlehubClientGetsOneResultListPerImage) {
  test::TestServer s(test::test_options());
  auto c = s.client();
  const json body = {{"images", {base64_encode(sample("imgs_ger_1.jpg")), base64_encode(sample("imgs_00009282.jpg"))}}};
  auto res = post_json(c, "/predict/ocr_system", body);
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json r = json::parse(res->body);
  EXPECT_EQ(r["status"], "000");
  ASSERT_EQ(r["results"].size(), 2u);
  const json& first = r["results"][0];  // test_hubserving.py reads r.json()["results"][0]
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0]["text"], "EPPING");
  EXPECT_GT(first[0]["confidence"].get<double>(), 0.9);
  EXPECT_EQ(first[0]["text_region"].size(), 4u);
  EXPECT_FALSE(r["results"][1].empty());
  auto other = post_json(c, "/predict/ocr_det", body);
  EXPECT_EQ(other->status, 404);
  EXPECT_EQ(json::parse(other->body)["status"], "111");
}

// /v1/ocr answers what `ocrforge ocr` writes to system_results.txt for the
// same image, sent raw or as a multipart upload.
TEST(OcrServer, PlainApiAnswersTheSystemResultsJson) {
  const std::string dir = test::fresh_dir("serve_plain");
  const std::string image = test::data_dir() + "/samples/imgs_00009282.jpg";
  const auto ocr = test::run_command(test::binary() + " ocr --image_dir " + image + " --draw_img_save_dir " + dir +
                                         "/out --visualize False --cpu_threads 1 --rec_workers 1",
                                     dir);
  ASSERT_EQ(ocr.exit_code, 0) << ocr.err;
  const std::string line = test::read_text(dir + "/out/system_results.txt");
  const std::string expected = line.substr(line.find('\t') + 1, line.find('\n') - line.find('\t') - 1);
  ASSERT_NE(expected.find("transcription"), std::string::npos);

  test::TestServer s(test::test_options());
  auto c = s.client();
  auto raw = c.Post("/v1/ocr", test::read_text(image), "image/jpeg");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->status, 200);
  EXPECT_EQ(raw->body, expected);
  httplib::MultipartFormDataItems form = {{"file", test::read_text(image), "imgs_00009282.jpg", "image/jpeg"}};
  auto multipart = c.Post("/v1/ocr", form);
  ASSERT_TRUE(multipart);
  EXPECT_EQ(multipart->body, expected);
  // curl --data-binary sends application/x-www-form-urlencoded; still an image.
  auto curl_like = c.Post("/v1/ocr", test::read_text(image), "application/x-www-form-urlencoded");
  EXPECT_EQ(curl_like->body, expected);
}

// The issue's list of bad inputs, each with its status and a JSON error.
TEST(OcrServer, BadInputsGetTheirStatusAndAJsonError) {
  const std::string key = "0123456789abcdef0123456789abcdef";
  ServeParams o = test::test_options();
  o.keys = ApiKeys::from_list({key});
  test::TestServer s(o);
  auto c = s.client();
  const httplib::Headers auth = {{"Authorization", "Bearer " + key}};
  const std::string ger = sample("imgs_ger_1.jpg");

  auto no_key = post_json(c, "/ocr", paddlex_body(ger));
  ASSERT_TRUE(no_key);
  EXPECT_EQ(no_key->status, 401);
  EXPECT_EQ(no_key->get_header_value("WWW-Authenticate"), "Bearer");
  EXPECT_NE(json::parse(no_key->body)["errorMsg"].get<std::string>().find("API key is required"), std::string::npos);
  auto wrong_key = post_json(c, "/ocr", paddlex_body(ger), {{"Authorization", "Bearer " + key + "x"}});
  EXPECT_EQ(wrong_key->status, 401);
  EXPECT_NE(json::parse(wrong_key->body)["errorMsg"].get<std::string>().find("not valid"), std::string::npos);
  auto x_api_key = post_json(c, "/ocr", paddlex_body(ger, {{"visualize", false}}), {{"X-API-Key", key}});
  EXPECT_EQ(x_api_key->status, 200) << x_api_key->body;
  EXPECT_EQ(c.Get("/health")->status, 200) << "probes need no key";
  EXPECT_EQ(c.Get("/metrics")->status, 401);
  EXPECT_EQ(c.Get("/metrics", auth)->status, 200);

  const std::string big(50u << 20, 'A');  // 50 MB
  auto huge_body = c.Post("/v1/ocr", auth, big, "image/jpeg");
  ASSERT_TRUE(huge_body) << httplib::to_string(huge_body.error());
  EXPECT_EQ(huge_body->status, 413);
  EXPECT_NE(json::parse(huge_body->body)["error"].get<std::string>().find("--max_body_mb"), std::string::npos);

  // A real PNG whose header claims 60000 x 60000 pixels.
  std::vector<uchar> png;
  cv::imencode(".png", cv::Mat(8, 8, CV_8UC3, cv::Scalar(200, 200, 200)), png);
  std::string bomb(png.begin(), png.end());
  for (int off : {16, 20}) bomb[off] = 0, bomb[off + 1] = 0, bomb[off + 2] = char(0xEA), bomb[off + 3] = char(0x60);
  auto pixels = c.Post("/v1/ocr", auth, bomb, "image/png");
  EXPECT_EQ(pixels->status, 413);
  EXPECT_NE(json::parse(pixels->body)["error"].get<std::string>().find("60000 x 60000"), std::string::npos) << pixels->body;

  auto truncated = post_json(c, "/ocr", paddlex_body(ger.substr(0, ger.size() / 2)), auth);
  EXPECT_EQ(truncated->status, 400);
  EXPECT_NE(json::parse(truncated->body)["errorMsg"].get<std::string>().find("truncated JPEG"), std::string::npos);

  auto not_image = c.Post("/v1/ocr", auth, "plain text, not an image", "application/octet-stream");
  EXPECT_EQ(not_image->status, 400);
  EXPECT_NE(json::parse(not_image->body)["error"].get<std::string>().find("not an image"), std::string::npos);
  auto pdf = c.Post("/v1/ocr", auth, "%PDF-1.4 not an image", "application/octet-stream");
  EXPECT_EQ(pdf->status, 415);
  EXPECT_NE(json::parse(pdf->body)["error"].get<std::string>().find("is a PDF, and this route reads images"),
            std::string::npos) << pdf->body;

  auto wrong_json = c.Post("/ocr", auth, "{\"file\": ", "application/json");
  EXPECT_EQ(wrong_json->status, 400);
  EXPECT_NE(json::parse(wrong_json->body)["errorMsg"].get<std::string>().find("not JSON"), std::string::npos);

  auto unknown = post_json(c, "/ocr", paddlex_body(ger, {{"lang", "en"}}), auth);
  EXPECT_EQ(unknown->status, 422);
  EXPECT_NE(json::parse(unknown->body)["errorMsg"].get<std::string>().find("unknown field 'lang'"), std::string::npos);

  auto bad_b64 = post_json(c, "/predict/ocr_system", {{"images", {"not base64!"}}}, auth);
  EXPECT_EQ(bad_b64->status, 400);
  EXPECT_EQ(json::parse(bad_b64->body)["status"], "101");

  auto no_route = c.Get("/nowhere", auth);
  EXPECT_EQ(no_route->status, 404);
  EXPECT_NE(json::parse(no_route->body)["error"].get<std::string>().find("/nowhere"), std::string::npos);
  // After all that, the server still reads.
  EXPECT_EQ(c.Post("/v1/ocr", auth, ger, "image/jpeg")->status, 200);
}

TEST(OcrServer, FullQueueAnswers503WithRetryAfter) {
  ServeParams o = test::test_options();
  o.max_concurrency = 1;
  o.queue_size = 0;
  o.retry_after_s = 3;
  test::TestServer s(o);
  const std::string page = sample("imgs_11.jpg");  // a whole page: hundreds of ms
  std::vector<std::future<std::pair<int, std::string>>> replies;
  for (int i = 0; i < 4; ++i)
    replies.push_back(std::async(std::launch::async, [&s, &page] {
      auto c = s.client();
      auto r = c.Post("/v1/ocr", page, "image/jpeg");
      return r ? std::make_pair(r->status, r->get_header_value("Retry-After")) : std::make_pair(-1, std::string());
    }));
  int ok = 0, busy = 0;
  for (auto& f : replies) {
    const auto [status, retry_after] = f.get();
    if (status == 200) ++ok;
    if (status == 503) {
      ++busy;
      EXPECT_EQ(retry_after, "3");
    }
    EXPECT_TRUE(status == 200 || status == 503) << status;
  }
  EXPECT_GE(ok, 1);
  EXPECT_GE(busy, 1) << "four requests at once for one worker and no queue";
}

TEST(OcrServer, RequestTimeoutAnswers503Or504) {
  ServeParams o = test::test_options();
  o.request_timeout = std::chrono::milliseconds(1);
  test::TestServer s(o);
  auto c = s.client();
  auto res = c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg");
  ASSERT_TRUE(res);
  EXPECT_TRUE(res->status == 503 || res->status == 504) << res->status;
  EXPECT_NE(json::parse(res->body)["error"].get<std::string>().find("--request_timeout"), std::string::npos) << res->body;
}

TEST(OcrServer, UrlInputsOnlyWithAllowUrls) {
  // The image's own server, on loopback (this machine has no network).
  httplib::Server files;
  const std::string img = sample("imgs_ger_1.jpg");
  files.Get("/img.jpg", [&img](const httplib::Request&, httplib::Response& res) { res.set_content(img, "image/jpeg"); });
  const int fport = files.bind_to_any_port("127.0.0.1");
  std::atomic<bool> ended{false};
  std::thread ft([&] {
    files.listen_after_bind();
    ended = true;
  });
  const std::string base = "http://127.0.0.1:" + std::to_string(fport);
  {
    test::TestServer closed(test::test_options());
    auto c = closed.client();
    auto res = post_json(c, "/ocr", {{"file", base + "/img.jpg"}, {"visualize", false}});
    EXPECT_EQ(res->status, 403);
    EXPECT_NE(json::parse(res->body)["errorMsg"].get<std::string>().find("--allow_urls"), std::string::npos);
  }
  {
    ServeParams o = test::test_options();
    o.allow_urls = true;
    test::TestServer open(o);
    auto c = open.client();
    auto res = post_json(c, "/ocr", {{"file", base + "/img.jpg"}, {"visualize", false}});
    ASSERT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(texts_of(json::parse(res->body)["result"]["ocrResults"][0]["prunedResult"])[0], "EPPING");
    auto missing = post_json(c, "/ocr", {{"file", base + "/missing.png"}});
    EXPECT_EQ(missing->status, 400);
    EXPECT_NE(json::parse(missing->body)["errorMsg"].get<std::string>().find("HTTP 404"), std::string::npos);
  }
  stop_listening(files, ended);
  ft.join();
}

TEST(OcrServer, ReadyOnlyOnceModelsAreLoaded) {
  test::TestServer s(test::test_options(), /*load=*/false);
  auto c = s.client();
  EXPECT_EQ(c.Get("/health")->status, 200);
  auto ready = c.Get("/ready");
  EXPECT_EQ(ready->status, 503);
  EXPECT_EQ(json::parse(ready->body)["reason"], "loading models");
  auto early = c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg");
  EXPECT_EQ(early->status, 503);
  EXPECT_FALSE(early->get_header_value("Retry-After").empty());
  s.server().load(test::model_params());
  EXPECT_EQ(c.Get("/ready")->status, 200);
  EXPECT_EQ(c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg")->status, 200);
}

TEST(OcrServer, MetricsAndAccessLogCountWhatHappened) {
  const std::string dir = test::fresh_dir("serve_metrics");
  ServeParams o = test::test_options();
  o.access_log = dir + "/access.log";
  o.metrics_port = 0;
  test::TestServer s(o);
  auto c = s.client();
  ASSERT_EQ(c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg")->status, 200);
  ASSERT_EQ(c.Post("/v1/ocr", sample("imgs_00009282.jpg"), "image/jpeg")->status, 200);
  ASSERT_EQ(c.Post("/v1/ocr", std::string("not an image"), "image/jpeg")->status, 400);
  // A request is counted once its response has been written, which can be
  // just after the client has read it: scrape until the last one is in.
  std::string text;
  for (int tries = 0; tries < 100; ++tries) {
    auto m = c.Get("/metrics");
    ASSERT_EQ(m->status, 200);
    text = m->body;
    if (text.find("ocrforge_http_request_duration_seconds_count{route=\"/v1/ocr\"} 3\n") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const char* want : {"ocrforge_http_requests_total{route=\"/v1/ocr\",status=\"200\"} 2\n",
                           "ocrforge_http_requests_total{route=\"/v1/ocr\",status=\"400\"} 1\n",
                           "ocrforge_images_total{outcome=\"ok\"} 2\n",
                           "ocrforge_images_total{outcome=\"undecodable\"} 1\n",
                           "ocrforge_http_request_duration_seconds_count{route=\"/v1/ocr\"} 3\n",
                           "ocrforge_stage_seconds_count{stage=\"det\"} 2\n",
                           "ocrforge_stage_seconds_count{stage=\"rec\"} 2\n",
                           "ocrforge_http_requests_in_flight 1\n",  // this scrape itself
                           "ocrforge_queue_length 0\n", "ocrforge_ready 1\n", "# TYPE process_resident_memory_bytes gauge\n"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  const double lines = s.server().metrics().value("ocrforge_text_lines_total");
  EXPECT_GE(lines, 4);  // 3 on the sign, more on the other
  // The same registry on the separate metrics port, without keys.
  httplib::Client side("127.0.0.1", s.server().metrics_port());
  auto scraped = side.Get("/metrics");
  ASSERT_TRUE(scraped);
  EXPECT_NE(scraped->body.find("ocrforge_images_total{outcome=\"ok\"} 2"), std::string::npos);

  // Each request is logged by its own connection's thread after its response
  // is out, so lines can land in any order (a scrape's line can come before
  // the third POST's): wait for the three POSTs, then find each by content.
  std::vector<json> entries, posts;
  for (int tries = 0; tries < 100; ++tries) {
    entries.clear();
    posts.clear();
    std::ifstream log(dir + "/access.log");
    for (std::string line; std::getline(log, line);) entries.push_back(json::parse(line));
    for (const auto& e : entries)
      if (e["method"] == "POST") posts.push_back(e);
    if (posts.size() >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(posts.size(), 3u);
  const json* sign = nullptr;
  const json* bad = nullptr;
  for (const auto& e : posts) {
    EXPECT_EQ(e["path"], "/v1/ocr");
    if (e["bytes_in"] == sample("imgs_ger_1.jpg").size()) sign = &e;
    if (e["status"] == 400) bad = &e;
  }
  ASSERT_NE(sign, nullptr) << "no log line for the sign picture";
  EXPECT_EQ((*sign)["status"], 200);
  EXPECT_EQ((*sign)["images"], 1);
  EXPECT_EQ((*sign)["lines"], 3);
  EXPECT_GT((*sign)["ms"].get<double>(), 0);
  ASSERT_NE(bad, nullptr) << "no log line with status 400";
  EXPECT_NE((*bad)["error"].get<std::string>().find("not an image"), std::string::npos);
  std::set<std::string> ids;
  for (const auto& e : entries) ids.insert(e["id"].get<std::string>());
  EXPECT_EQ(ids.size(), entries.size()) << "one id per request";
}

// Requests at once on one shared pipeline get what they get one by one (the
// TSan build runs this to check the sharing).
TEST(OcrServer, ConcurrentRequestsShareTheModelsAndMatchSequentialAnswers) {
  ServeParams o = test::test_options();
  o.max_concurrency = 3;
  test::TestServer s(o, true, /*cls=*/true);
  const std::vector<std::string> names = {"imgs_ger_1.jpg", "imgs_french_0.jpg", "imgs_00009282.jpg"};
  std::vector<std::string> expected;
  {
    auto c = s.client();
    for (const auto& n : names) expected.push_back(c.Post("/v1/ocr", sample(n), "image/jpeg")->body);
  }
  std::vector<std::future<std::string>> got;
  for (int i = 0; i < 4; ++i)
    got.push_back(std::async(std::launch::async, [&s, &names, i] {
      auto c = s.client();
      json body = {{"images", {base64_encode(sample(names[i % 3]))}}};
      auto hub = c.Post("/predict/ocr_system", body.dump(), "application/json");
      auto plain = c.Post("/v1/ocr", sample(names[i % 3]), "image/jpeg");
      if (!hub || hub->status != 200) return std::string("ocr_system failed");
      return plain ? plain->body : std::string("failed");
    }));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i].get(), expected[i % 3]) << names[i % 3];
}

TEST(OcrServer, ServesHttpsWithACertificateAndRefusesBadFiles) {
  const std::string dir = test::fresh_dir("serve_tls");
  const auto made = test::run_command("openssl req -x509 -newkey rsa:2048 -nodes -keyout " + dir + "/key.pem -out " +
                                          dir + "/cert.pem -days 1 -subj /CN=localhost",
                                      dir);
  ASSERT_EQ(made.exit_code, 0) << made.err;
  ServeParams o = test::test_options();
  o.tls_cert = dir + "/cert.pem";
  o.tls_key = dir + "/key.pem";
  {
    test::TestServer s(o, /*load=*/false);
    EXPECT_EQ(s.server().url().rfind("https://127.0.0.1:", 0), 0u) << s.server().url();
    httplib::SSLClient c("127.0.0.1", s.port());
    c.enable_server_certificate_verification(false);  // CN=localhost, dialled as 127.0.0.1
    auto res = c.Get("/health");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(json::parse(res->body)["errorMsg"], "Healthy");
    httplib::Client plain("127.0.0.1", s.port());
    plain.set_read_timeout(std::chrono::seconds(5));
    auto cleartext = plain.Get("/health");
    EXPECT_FALSE(cleartext && cleartext->status == 200) << "plain HTTP must not be answered on the HTTPS port";
  }
  o.tls_key = dir + "/cert.pem";  // not a key
  try {
    OcrServer bad(o);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--tls_key"), std::string::npos) << e.what();
  }
}
