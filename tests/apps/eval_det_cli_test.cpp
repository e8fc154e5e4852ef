// `ocrforge eval-det` end to end on tiny hand-made ground truth / prediction
// pairs: perfect, missing, extra, ignored regions, and bad usage.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "test_support.h"

using namespace ocrforge;

namespace {

// Two images; a.jpg has two boxes and one "###" region, b.jpg one box.
const char* kGt =
    "imgs/a.jpg\t[{\"transcription\": \"one\", \"points\": [[0, 0], [100, 0], [100, 20], [0, 20]]}, "
    "{\"transcription\": \"two\", \"points\": [[0, 50], [100, 50], [100, 70], [0, 70]]}, "
    "{\"transcription\": \"###\", \"points\": [[200, 0], [300, 0], [300, 20], [200, 20]]}]\n"
    "imgs/b.jpg\t[{\"transcription\": \"three\", \"points\": [[10, 10], [60, 10], [60, 30], [10, 30]]}]\n";

struct Scores {
  double precision = -1, recall = -1, hmean = -1;
};

Scores parse(const std::string& out) {
  Scores s;
  const auto get = [&](const std::string& key) {
    const size_t p = out.find(key + ": ");
    return p == std::string::npos ? -1.0 : std::stod(out.substr(p + key.size() + 2));
  };
  s.precision = get("precision");
  s.recall = get("recall");
  s.hmean = get("hmean");
  return s;
}

test::CommandResult eval_det(const std::string& dir, const std::string& gt, const std::string& pred) {
  test::write_text(dir + "/gt.txt", gt);
  test::write_text(dir + "/pred.txt", pred);
  return test::run_command(test::binary() + " eval-det --gt " + dir + "/gt.txt --pred " + dir + "/pred.txt", dir);
}

}  // namespace

TEST(EvalDetCli, PerfectPredictionsScoreOne) {
  const std::string dir = test::fresh_dir("eval_det_perfect");
  // det_results.txt form (file names only, bare point lists), including a box on the ignored region.
  const auto r = eval_det(dir, kGt,
                          "a.jpg\t[[[0, 0], [100, 0], [100, 20], [0, 20]], [[0, 50], [100, 50], [100, 70], [0, 70]], "
                          "[[200, 0], [300, 0], [300, 20], [200, 20]]]\n"
                          "b.jpg\t[[[10, 10], [60, 10], [60, 30], [10, 30]]]\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Scores s = parse(r.out);
  EXPECT_DOUBLE_EQ(s.precision, 1.0) << r.out;
  EXPECT_DOUBLE_EQ(s.recall, 1.0) << r.out;
  EXPECT_DOUBLE_EQ(s.hmean, 1.0) << r.out;
  EXPECT_NE(r.out.find("gt regions cared for: 3, detections cared for: 3, matched: 3"), std::string::npos) << r.out;
}

TEST(EvalDetCli, MissingImageCountsAsNoDetections) {
  const std::string dir = test::fresh_dir("eval_det_missing");
  // system_results.txt form; b.jpg has no line at all.
  const auto r = eval_det(dir, kGt,
                          "a.jpg\t[{\"transcription\": \"one\", \"points\": [[0, 0], [100, 0], [100, 20], [0, 20]]}, "
                          "{\"transcription\": \"two\", \"points\": [[0, 50], [100, 50], [100, 70], [0, 70]]}]\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Scores s = parse(r.out);
  EXPECT_DOUBLE_EQ(s.precision, 1.0);
  EXPECT_NEAR(s.recall, 2.0 / 3.0, 1e-6);
  EXPECT_NEAR(s.hmean, 0.8, 1e-6);
  EXPECT_NE(r.out.find("without predictions: 1"), std::string::npos) << r.out;
}

TEST(EvalDetCli, ExtraAndMisplacedDetectionsLowerPrecision) {
  const std::string dir = test::fresh_dir("eval_det_extra");
  // a.jpg: both boxes found plus one false alarm; b.jpg: one box shifted to IoU < 0.5.
  const auto r = eval_det(dir, kGt,
                          "imgs/a.jpg\t[[[0, 0], [100, 0], [100, 20], [0, 20]], [[0, 50], [100, 50], [100, 70], [0, 70]], "
                          "[[400, 400], [450, 400], [450, 420], [400, 420]]]\n"
                          "imgs/b.jpg\t[[[40, 10], [90, 10], [90, 30], [40, 30]]]\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Scores s = parse(r.out);
  EXPECT_NEAR(s.precision, 2.0 / 4.0, 1e-6);
  EXPECT_NEAR(s.recall, 2.0 / 3.0, 1e-6);
  EXPECT_NEAR(s.hmean, 2 * 0.5 * (2.0 / 3.0) / (0.5 + 2.0 / 3.0), 1e-6);
}

TEST(EvalDetCli, BadLinesAreSkippedAndReported) {
  const std::string dir = test::fresh_dir("eval_det_bad");
  const auto r = eval_det(dir, std::string(kGt) + "imgs/c.jpg\t[{not json\n",
                          "a.jpg\t[[[0, 0], [100, 0], [100, 20], [0, 20]], [[1, 1], [2, 2]]]\nzzz.jpg\t[]\n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("gt.txt:3: skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'zzz.jpg' (--pred) is not in --gt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 regions with < 3 points"), std::string::npos) << r.err;
  const Scores s = parse(r.out);
  EXPECT_NEAR(s.recall, 1.0 / 3.0, 1e-6);
}

TEST(EvalDetCli, UsageAndFileErrorsHaveTheirExitCodes) {
  const std::string dir = test::fresh_dir("eval_det_usage");
  auto r = test::run_command(test::binary() + " eval-det --gt x.txt", dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--pred"), std::string::npos) << r.err;
  r = test::run_command(test::binary() + " eval-det --gt " + dir + "/nope.txt --pred " + dir + "/nope2.txt", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("nope.txt"), std::string::npos) << r.err;
  // Names that match nothing: an error, not a silent 0.
  r = eval_det(dir, kGt, "other.jpg\t[]\n");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("names differ"), std::string::npos) << r.err;
}

// Per-record work is bounded (issue 29): a 200,000-point polygon made the
// validity check (every pair of edges) run for hours; it is now refused by
// line and region, and the other images are scored.
TEST(EvalDetCli, AHugePolygonIsRefusedByNameAndTheRestScored) {
  const std::string dir = ocrforge::test::fresh_dir("eval_det_huge");
  std::string huge = "[";
  for (int i = 0; i < 200000; ++i) {
    const double a = 6.283185307 * i / 200000;
    huge += (i ? ", [" : "[") + std::to_string(500 + 400 * std::cos(a)) + ", " + std::to_string(500 + 400 * std::sin(a)) + "]";
  }
  huge += "]";
  const std::string box = "[{\"transcription\": \"A\", \"points\": [[0, 0], [100, 0], [100, 50], [0, 50]]}]";
  ocrforge::test::write_text(dir + "/gt.txt", "big.jpg\t[{\"transcription\": \"O\", \"points\": " + huge + "}]\nok.jpg\t" + box + "\n");
  ocrforge::test::write_text(dir + "/pred.txt", "ok.jpg\t" + box + "\n");
  const auto start = std::chrono::steady_clock::now();
  const auto r = ocrforge::test::run_command(
      ocrforge::test::binary() + " eval-det --gt " + dir + "/gt.txt --pred " + dir + "/pred.txt", dir);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("gt.txt:1: skipped: region 0 has 200000 points, over the 4096"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("hmean: 1.000000"), std::string::npos) << r.out;
}
