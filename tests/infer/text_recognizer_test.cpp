#include "ocrforge/infer/text_recognizer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/text.h"
#include "ocrforge/onnx/onnx_writer.h"
#include "ocrforge/vision/rec_metric.h"
#include "onnx/tiny_quant_graphs.h"
#include "test_support.h"

using namespace ocrforge;

static RecParams rec_params() {
  RecParams p;
  p.model_dir = test::model_root() + "/rec";
  p.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  return p;
}

TEST(TextRecognizer, ReadsRealSceneWordCrops) {
  // 10 real scene word crops (tests/data/rec_toy). Half are hard for the
  // Chinese+English PP-OCRv4 model (mirrored text, two-line crops, 35x19
  // pixels): it reads 4 exactly (norm_edit_dis 0.63). The clean ones must be
  // exact; docs/accuracy.md has the figures and the 400-crop IC15 check.
  TextRecognizer rec(rec_params(), RuntimeParams{});
  const std::string dir = test::data_dir() + "/rec_toy";
  std::ifstream labels(dir + "/rec_gt.txt");
  std::vector<cv::Mat> crops;
  std::vector<std::string> truth;
  std::string line;
  while (std::getline(labels, line)) {
    auto parts = split(line, '\t');
    ASSERT_EQ(parts.size(), 2u);
    crops.push_back(cv::imread(dir + "/" + parts[0]));
    ASSERT_FALSE(crops.back().empty()) << parts[0];
    truth.push_back(parts[1]);
  }
  ASSERT_EQ(crops.size(), 10u);
  auto results = rec.recognize(crops);
  ASSERT_EQ(results.size(), crops.size());
  RecMetric metric;
  for (size_t i = 0; i < crops.size(); ++i) {
    metric.add(results[i].text, truth[i]);
    if (truth[i] == "03/09/2009" || truth[i] == "america" || truth[i] == "ATTACK") {
      EXPECT_EQ(results[i].text, truth[i]);
    }
  }
  // Measured on these 10 crops: acc 0.40 at the default width floor (160)
  // and at PaddleOCR's 320; norm_edit_dis 0.600 and 0.634.
  EXPECT_GE(metric.acc(), 0.4);
  EXPECT_GE(metric.norm_edit_dis(), 0.55);
}

TEST(TextRecognizer, ReadsAChineseLineAndKeepsInputOrder) {
  TextRecognizer rec(rec_params(), RuntimeParams{});
  cv::Mat phone = cv::imread(test::data_dir() + "/samples/ch_word_3.jpg");
  cv::Mat word = cv::imread(test::data_dir() + "/rec_toy/imgs/1240078.jpg");
  auto r = rec.recognize({phone, word, phone});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NE(r[0].text.find("15952301928"), std::string::npos) << r[0].text;
  EXPECT_EQ(r[1].text, "ATTACK");
  EXPECT_EQ(r[0].text, r[2].text);
  EXPECT_GT(r[1].score, 0.8f);
}

TEST(TextRecognizer, BatchSizeDoesNotChangeResults) {
  RecParams one = rec_params(), six = rec_params();
  one.batch_num = 1;
  six.batch_num = 6;  // the default is 1 now; 6 puts the three 320-wide crops in one call
  // PaddleOCR's floor: all three crops are narrower than 320, so they share
  // that width (at the default floor of 160 they would keep widths of their own).
  one.min_width = six.min_width = 0;
  TextRecognizer a(one, RuntimeParams{}), b(six, RuntimeParams{});
  std::vector<cv::Mat> crops;
  for (const char* f : {"1036169.jpg", "1223731.jpg", "1240078.jpg"})
    crops.push_back(cv::imread(test::data_dir() + "/rec_toy/imgs/" + f));
  auto ra = a.recognize(crops), rb = b.recognize(crops);
  for (size_t i = 0; i < crops.size(); ++i) EXPECT_EQ(ra[i].text, rb[i].text);
  EXPECT_EQ(a.stats().calls, 3);
  EXPECT_EQ(b.stats().calls, 1);
}

TEST(TextRecognizer, WorkersRunBatchesAtOnceWithoutChangingResultsOrOrder) {
  // The 10 rec_toy crops plus a Chinese line, recognised by one worker and
  // by three (each batch on its own thread): the same texts in the same
  // slots, scores equal up to float rounding of the intra-op split, and
  // every crop counted once.
  std::vector<cv::Mat> crops;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_dir() + "/rec_toy/imgs"))
    crops.push_back(cv::imread(entry.path().string()));
  crops.push_back(cv::imread(test::data_dir() + "/samples/ch_word_3.jpg"));
  ASSERT_EQ(crops.size(), 11u);
  RecParams serial = rec_params(), parallel = rec_params();
  serial.workers = 1;
  parallel.workers = 3;
  RuntimeParams rt;
  rt.cpu_threads = 3;
  TextRecognizer a(serial, rt), b(parallel, rt);
  EXPECT_EQ(a.workers(), 1);
  EXPECT_EQ(a.threads_per_worker(), effective_threads(3));  // 3, or the CPUs there are
  EXPECT_EQ(b.workers(), 3);
  EXPECT_EQ(b.threads_per_worker(), 1);
  for (int round = 0; round < 3; ++round) {  // thread interleavings differ per round
    auto ra = a.recognize(crops), rb = b.recognize(crops);
    ASSERT_EQ(rb.size(), crops.size());
    for (size_t i = 0; i < crops.size(); ++i) {
      EXPECT_EQ(ra[i].text, rb[i].text) << "crop " << i;
      EXPECT_NEAR(ra[i].score, rb[i].score, 1e-4) << "crop " << i;
    }
  }
  EXPECT_EQ(b.stats().images, 33);
  EXPECT_EQ(b.stats().calls, 33);
  EXPECT_GT(b.stats().inference_ms, 0.0);
}

TEST(TextRecognizer, DefaultWorkersAreOnePerCpuThread) {
  RuntimeParams rt;
  rt.cpu_threads = 2;
  TextRecognizer rec(rec_params(), rt);
  EXPECT_EQ(rec.workers(), 2);
  EXPECT_EQ(rec.threads_per_worker(), 1);
  RecParams bad = rec_params();
  bad.workers = -1;
  EXPECT_THROW(TextRecognizer(bad, rt), UsageError);
}

TEST(TextRecognizer, DictionaryThatDoesNotFitTheModelIsRejected) {
  const std::string dir = test::fresh_dir("smalldict");
  test::write_text(dir + "/dict.txt", "a\nb\nc\n");
  RecParams p = rec_params();
  p.char_dict_path = dir + "/dict.txt";
  try {
    TextRecognizer rec(p, RuntimeParams{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("dict.txt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("6625"), std::string::npos) << msg;
    EXPECT_NE(msg.find("5"), std::string::npos) << msg;
  }
}

TEST(TextRecognizer, DetectionModelIsRejected) {
  RecParams p = rec_params();
  p.model_dir = test::model_root() + "/det";
  try {
    TextRecognizer rec(p, RuntimeParams{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a text recognition"), std::string::npos) << e.what();
  }
}

// A model with a static input width (what `ocrforge export` writes for an
// SVTRNet recognizer): every crop is resized into that width, as PaddleOCR's
// predict_rec does, instead of getting its own width, which ORT would refuse.
// The graph: 48 x 64 -> 3 x 2 classes x 8 steps (an average pool per step).
TEST(TextRecognizer, AStaticInputWidthTakesEveryCrop) {
  const std::string dir = test::fresh_dir("static_width_rec");
  OnnxGraph g;
  g.opset = 17;
  g.inputs = {"x"};
  g.outputs = {"softmax"};
  g.io_shapes = {{"x", {-1, 3, 48, 64}}, {"softmax", {-1, 8, 3}}};
  g.constants["axes"] = test::int64_tensor({2});
  OnnxNode pool = test::node("AveragePool", {"x"}, "pooled");
  pool.attrs["kernel_shape"] = test::ints_attr({48, 8});
  pool.attrs["strides"] = test::ints_attr({48, 8});
  g.nodes.push_back(pool);
  g.nodes.push_back(test::node("Squeeze", {"pooled", "axes"}, "seq"));  // N, 3, 8
  OnnxNode t = test::node("Transpose", {"seq"}, "steps");
  t.attrs["perm"] = test::ints_attr({0, 2, 1});
  g.nodes.push_back(t);
  OnnxNode sm = test::node("Softmax", {"steps"}, "softmax");
  sm.attrs["axis"] = test::int_attr(2);
  g.nodes.push_back(sm);
  write_onnx_graph(g, dir + "/inference.onnx");
  test::write_text(dir + "/dict.txt", "a\nb\n");
  RecParams p;
  p.model_dir = dir;
  p.char_dict_path = dir + "/dict.txt";
  p.use_space_char = false;
  TextRecognizer rec(p, RuntimeParams{});
  // Narrow, wide and very wide crops, batched together.
  std::vector<cv::Mat> crops{cv::Mat(20, 10, CV_8UC3, cv::Scalar(200, 10, 10)), cv::Mat(30, 300, CV_8UC3, cv::Scalar(0)),
                             cv::Mat(16, 900, CV_8UC3, cv::Scalar(255, 255, 255))};
  const std::vector<RecText> out = rec.recognize(crops);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_LT(out[0].content_ratio, 0.5f);  // a narrow crop keeps its aspect and is padded
  EXPECT_FLOAT_EQ(out[2].content_ratio, 1.0f);  // a wide one is squeezed into the 64 columns
}
