// Requests made to hurt the server (reliability round 3): each is answered
// with a 4xx JSON error naming what is wrong, within the server's limits,
// and the server goes on reading good requests afterwards.
#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/serve/base64.h"
#include "serve_test_support.h"

using namespace ocrforge;
using json = nlohmann::json;

namespace {

std::string sample(const std::string& name) { return test::read_text(test::data_dir() + "/samples/" + name); }

std::string error_of(const httplib::Result& r) {
  const json j = json::parse(r->body);
  if (j.contains("errorMsg")) return j["errorMsg"].get<std::string>();
  return j.contains("msg") ? j["msg"].get<std::string>() : j.value("error", "");
}

// `n` zero bytes, gzip-compressed (about n / 1000 bytes).
std::string gzip_of_zeros(size_t n) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
  const std::string zeros(1 << 20, '\0');
  std::string out;
  char buf[1 << 16];
  for (size_t done = 0; done < n;) {
    const size_t take = std::min(zeros.size(), n - done);
    done += take;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
    z.avail_in = static_cast<uInt>(take);
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof(buf);
      deflate(&z, done == n ? Z_FINISH : Z_NO_FLUSH);
      out.append(buf, sizeof(buf) - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

ServeParams small_limits() {
  ServeParams o = test::test_options();
  o.max_body_bytes = 1u << 20;  // 1 MiB
  return o;
}

}  // namespace

// Defect 1: a field nested 60,000 deep killed the server with SIGSEGV.
TEST(HostileRequests, DeeplyNestedJsonIsA400NamingTheFieldAndTheServerLives) {
  test::TestServer s(small_limits());
  auto c = s.client();
  const std::string deep = std::string(60000, '[') + std::string(60000, ']');
  auto r = c.Post("/ocr", R"({"file": "aGk=", "fileType": )" + deep + "}", "application/json");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(error_of(r).find("field 'fileType'"), std::string::npos) << r->body;
  auto hub = c.Post("/predict/ocr_system", R"({"images": )" + deep + "}", "application/json");
  ASSERT_TRUE(hub);
  EXPECT_EQ(hub->status, 400);
  EXPECT_NE(error_of(hub).find("field 'images'"), std::string::npos) << hub->body;
  auto number = c.Post("/ocr", R"({"file": "aGk=", "fileType": 1, "textDetThresh": 1e400})", "application/json");
  ASSERT_TRUE(number);
  EXPECT_EQ(number->status, 400) << number->body;
  EXPECT_EQ(c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg")->status, 200);
}

// Defect 2: the body limit counts the bytes after Content-Encoding is undone
// and while a chunked body streams in, and the read stops there.
TEST(HostileRequests, BodyLimitHoldsForGzipAndChunkedBodies) {
  test::TestServer s(small_limits());
  auto c = s.client();
  // 64 MiB of zeros in about 64 KB of gzip: under the limit as sent, 64 times
  // over it inflated.
  const std::string bomb = gzip_of_zeros(64u << 20);
  ASSERT_LT(bomb.size(), 1u << 20);
  auto gz = c.Post("/v1/ocr", {{"Content-Encoding", "gzip"}}, bomb, "image/png");
  ASSERT_TRUE(gz) << httplib::to_string(gz.error());
  EXPECT_EQ(gz->status, 413);
  EXPECT_NE(error_of(gz).find("after any Content-Encoding"), std::string::npos) << gz->body;

  // A chunked body with no end: the server answers 413 after the limit,
  // not after reading everything the client would send.
  std::atomic<size_t> sent{0};
  const size_t offered = 256u << 20;
  auto chunked = c.Post(
      "/ocr",
      [&](size_t, httplib::DataSink& sink) {
        static const std::string block(64 << 10, 'A');
        if (sent >= offered) {
          sink.done();
          return true;
        }
        sent += block.size();
        return sink.write(block.data(), block.size());
      },
      "application/json");
  if (chunked) {
    EXPECT_EQ(chunked->status, 413);
  }
  EXPECT_LT(sent.load(), offered) << "the server read the whole chunked body";

  // A route that takes no body refuses one before reading it.
  auto probe = c.Post("/health", std::string(100, 'x'), "text/plain");
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->status, 413);
  auto wrong_module = c.Post("/predict/nothing", std::string(100, 'x'), "application/json");
  ASSERT_TRUE(wrong_module);
  EXPECT_EQ(wrong_module->status, 404);
  EXPECT_EQ(s.client().Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg")->status, 200);
}

// Defect 4: per-request values outside their documented ranges are refused
// naming the field, before any work.
TEST(HostileRequests, PerRequestValuesOutOfRangeAreRefusedNamingThem) {
  test::TestServer s(small_limits());
  auto c = s.client();
  const std::string tiny = base64_encode(test::read_text(test::data_dir() + "/samples/imgs_ger_1.jpg"));
  const struct {
    json extra;
    const char* field;
  } cases[] = {
      {{{"textDetUnclipRatio", 1e11}}, "textDetUnclipRatio"},
      {{{"textDetLimitType", "min"}, {"textDetLimitSideLen", 4000}}, "textDetLimitSideLen"},
      {{{"textDetThresh", -0.5}}, "textDetThresh"},
  };
  for (const auto& k : cases) {
    json body = {{"file", tiny}, {"fileType", 1}};
    body.update(k.extra);
    auto r = c.Post("/ocr", body.dump(), "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 422) << k.field;
    EXPECT_NE(error_of(r).find(k.field), std::string::npos) << r->body;
  }
}

// Defect 3: a JPEG whose fill byte (FF) before its SOF hid a 27000 x 27000
// frame from the old header sniffing, and TIFFs of any size or page count,
// decoded before any check. The budget is read as the decoders read it.
TEST(HostileRequests, LyingHeadersAreRefusedBeforeDecoding) {
  test::TestServer s(small_limits());
  auto c = s.client();
  // Made here, so that no EXIF thumbnail brings a frame header of its own.
  std::vector<uchar> encoded;
  ASSERT_TRUE(cv::imencode(".jpg", cv::Mat(32, 48, CV_8UC3, cv::Scalar(200, 200, 200)), encoded));
  std::string jpeg(encoded.begin(), encoded.end());
  const size_t sof = jpeg.find("\xff\xc0");
  ASSERT_NE(sof, std::string::npos);
  // 65000 x 65000: even decoded at 1/8 (as a JPEG over 2 x max_side is)
  // 8125 x 8125, over the 50 MP budget. (The 27000 x 27000 of the report
  // decodes at 1/8 to 11 MP: within the budget, 34 MB instead of 13 GB.)
  for (size_t k : {5u, 7u}) {  // height, then width
    jpeg[sof + k] = static_cast<char>(65000 >> 8);
    jpeg[sof + k + 1] = static_cast<char>(65000 & 0xff);
  }
  jpeg.insert(sof, "\xff");  // a fill byte: still valid JPEG
  auto big = c.Post("/v1/ocr", jpeg, "image/jpeg");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413) << big->body;
  EXPECT_NE(error_of(big).find("65000 x 65000"), std::string::npos) << big->body;

  // Three small pages: a document, not an image.
  const cv::Mat page(20, 30, CV_8UC3, cv::Scalar(255, 255, 255));
  const std::string dir = test::fresh_dir("hostile_tiff");
  ASSERT_TRUE(cv::imwritemulti(dir + "/three.tif", std::vector<cv::Mat>{page, page, page}));
  auto pages = c.Post("/v1/ocr", test::read_text(dir + "/three.tif"), "image/tiff");
  ASSERT_TRUE(pages);
  EXPECT_EQ(pages->status, 400) << pages->body;
  EXPECT_NE(error_of(pages).find("TIFF of 3 pages"), std::string::npos) << pages->body;
  EXPECT_EQ(c.Post("/v1/ocr", sample("imgs_ger_1.jpg"), "image/jpeg")->status, 200);
}
