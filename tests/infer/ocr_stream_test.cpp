#include "ocrforge/infer/ocr_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "test_support.h"

using namespace ocrforge;

static OcrParams params() {
  OcrParams p;
  p.det.model_dir = test::model_root() + "/det";
  p.rec.model_dir = test::model_root() + "/rec";
  p.cls.model_dir = test::model_root() + "/cls";
  p.rec.char_dict_path = test::model_root() + "/ppocr_keys_v1.txt";
  p.runtime.cpu_threads = 1;
  p.use_angle_cls = true;
  return p;
}

TEST(OcrStream, ResultsComeInInputOrderAndABadImageFailsAlone) {
  const std::string dir = test::fresh_dir("ocr_stream");
  const std::string broken = dir + "/broken.jpg";
  test::write_text(broken, "not a jpeg at all");
  const std::string ger = test::data_dir() + "/samples/imgs_ger_1.jpg";
  const std::string en = test::data_dir() + "/samples/imgs_en_img623.jpg";
  const std::vector<std::string> paths = {ger, dir + "/missing.jpg", en, broken, ger};

  OcrStream stream(params(), StreamParams{});
  std::vector<StreamResult> got;
  stream.run(paths, [&](StreamResult&& r) { got.push_back(std::move(r)); });

  ASSERT_EQ(got.size(), paths.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, i);
    EXPECT_EQ(got[i].path, paths[i]);
  }
  EXPECT_FALSE(got[1].ok);
  EXPECT_NE(got[1].error.find("missing.jpg"), std::string::npos) << got[1].error;
  EXPECT_FALSE(got[3].ok);
  EXPECT_NE(got[3].error.find("broken.jpg"), std::string::npos) << got[3].error;

  // The good images read exactly what the sequential pipeline reads.
  OcrPipeline sequential(params());
  for (size_t i : {0u, 2u, 4u}) {
    ASSERT_TRUE(got[i].ok) << got[i].error;
    const OcrResult want = sequential.run(cv::imread(paths[i]));
    ASSERT_GT(want.lines.size(), 0u) << paths[i];
    ASSERT_EQ(got[i].result.lines.size(), want.lines.size()) << paths[i];
    for (size_t k = 0; k < want.lines.size(); ++k) {
      EXPECT_EQ(got[i].result.lines[k].text, want.lines[k].text);
      EXPECT_EQ(got[i].result.lines[k].box[0], want.lines[k].box[0]);
    }
    EXPECT_EQ(got[i].result.image_size, want.image_size);
  }
}

TEST(OcrStream, AnExceptionInTheSinkStopsTheStagesAndIsRethrown) {
  StreamParams one_each;
  one_each.queue_depth = 1;
  one_each.det_threads = 1;
  one_each.rec_threads = 1;
  OcrStream stream(params(), one_each);
  const std::string img = test::data_dir() + "/samples/ch_word_3.jpg";
  const std::vector<std::string> paths(8, img);
  size_t calls = 0;
  EXPECT_THROW(stream.run(paths,
                          [&](StreamResult&&) {
                            if (++calls == 2) throw Error("sink full");
                          }),
               Error);
  EXPECT_EQ(calls, 2u);
  // The stream is reusable afterwards.
  size_t again = 0;
  stream.run({img}, [&](StreamResult&& r) { again += r.ok; });
  EXPECT_EQ(again, 1u);
}

// The decoded images held between decoding and the sink stay within
// image_bytes_in_flight (+ the one the decoder waits with); without the
// budget, the queues alone let many more be in flight. An image larger
// than the whole budget still goes through, alone.
TEST(OcrStream, DecodedImagesInFlightStayWithinTheByteBudget) {
  const size_t image_bytes = 600 * 800 * 3;
  const auto max_in_flight = [&](size_t budget, int rows) {
    std::atomic<int> alive{0};
    int peak = 0;
    std::mutex m;
    StreamParams so;
    so.image_bytes_in_flight = budget;
    so.decode = [&](const std::string&) {
      LoadedImage im;
      im.bgr = cv::Mat(rows, 800, CV_8UC3, cv::Scalar(255, 255, 255));
      im.original = im.bgr.size();
      const int now = ++alive;
      std::lock_guard<std::mutex> lock(m);
      peak = std::max(peak, now);
      return im;
    };
    OcrStream stream(params(), so);
    size_t ok = 0;
    stream.run(std::vector<std::string>(8, "blank"), [&](StreamResult&& r) {
      ok += r.ok;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a slow sink lets the queues fill
      r = StreamResult{};
      --alive;
    });
    EXPECT_EQ(ok, 8u);
    return peak;
  };
  EXPECT_LE(max_in_flight(2 * image_bytes, 600), 3);  // two taken, one waiting at the decoder
  EXPECT_GE(max_in_flight(0, 600), 5) << "the queues alone hold more: the budget is what bounds it";
  EXPECT_LE(max_in_flight(image_bytes / 2, 600), 2);  // each larger than the budget: one at a time (+1 waiting)
}
