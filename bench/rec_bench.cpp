// ocrforge_rec_bench: recognition speed and accuracy for several batch sizes
// and width steps, measured in one process, alternating the settings every
// round so all see the same machine load.
//
//   ocrforge_rec_bench --rec_labels ../shared/data/ic15_rec_train/rec_gt_train.txt --limit 500
//   ocrforge_rec_bench --det_labels ../shared/data/funsd_train/det_gt.txt --limit_images 20
//
// Crops come from a recognition label file (one crop per line) or from the
// ground-truth boxes of a detection label file (lines cut from pages with
// rotate_crop, as the pipeline cuts detected boxes). Each setting
// (batch_num x width_step) gets its own TextRecognizer; every round runs all
// crops through each setting in turn (the order rotates every round).
// Settings also vary the workers (batches recognised at once, RecParams::workers).
// Reported per setting: median ms per crop over the rounds, ORT calls, acc
// and norm_edit_dis against the labels, and how many texts differ from
// batch 1 with 1 worker at the same width step (must be 0: rec_batching.h).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/vision/crop.h"
#include "ocrforge/vision/rec_metric.h"

namespace {

using namespace ocrforge;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Data {
  std::vector<cv::Mat> crops;
  std::vector<std::string> truth;
};

Data load_rec(const std::string& file, int limit) {
  Data d;
  const std::string dir = label_file_dir(file);
  for (const auto& l : read_rec_labels(file)) {
    if (limit > 0 && static_cast<int>(d.crops.size()) >= limit) break;
    cv::Mat m = cv::imread(dir + "/" + l.path, cv::IMREAD_COLOR);
    if (m.empty()) throw Error("cannot read crop '" + dir + "/" + l.path + "' listed in " + file);
    d.crops.push_back(m);
    d.truth.push_back(l.text);
  }
  return d;
}

Data load_det(const std::string& file, int limit_images) {
  Data d;
  const std::string dir = label_file_dir(file);
  int images = 0;
  for (const auto& l : read_det_labels(file)) {
    if (limit_images > 0 && images >= limit_images) break;
    cv::Mat page = cv::imread(dir + "/" + l.path, cv::IMREAD_COLOR);
    if (page.empty()) throw Error("cannot read image '" + dir + "/" + l.path + "' listed in " + file);
    ++images;
    for (const auto& r : l.regions) {
      if (r.ignore() || r.points.size() != 4) continue;
      Quad q;
      for (size_t k = 0; k < 4; ++k) q[k] = cv::Point2f(r.points[k][0], r.points[k][1]);
      cv::Mat crop = rotate_crop(page, q);
      if (crop.empty() || crop.rows < 2 || crop.cols < 2) continue;
      d.crops.push_back(crop);
      d.truth.push_back(r.transcription);
    }
  }
  return d;
}

int run(int argc, char** argv) {
  FlagSet flags("rec_bench");
  flags.add("rec_labels", "", "recognition label file (crops)");
  flags.add("det_labels", "", "detection label file (crops cut from its ground-truth boxes)");
  flags.add("limit", "0", "at most this many crops from --rec_labels (0: all)");
  flags.add("limit_images", "20", "at most this many pages from --det_labels (0: all)");
  flags.add("batches", "1,2,4,6,8", "rec batch sizes to compare");
  flags.add("width_steps", "1", "rec width steps to compare");
  flags.add("workers", "1", "rec workers to compare (0: one per cpu thread)");
  flags.add("min_widths", std::to_string(RecParams{}.min_width),
            "rec min widths to compare (default: the shipped floor; 0: image_w, PaddleOCR's padding)");
  flags.add("rounds", "3", "alternating rounds");
  flags.add("cpu_threads", std::to_string(RuntimeParams{}.cpu_threads), "ONNX Runtime intra-op threads");
  flags.parse(std::vector<std::string>(argv + 1, argv + argc));
  if (flags.help_requested()) {
    std::fputs(flags.help_text().c_str(), stdout);
    return 0;
  }
  if (flags.get("rec_labels").empty() == flags.get("det_labels").empty())
    throw UsageError("give exactly one of --rec_labels and --det_labels");
  cv::setNumThreads(1);
  const Data data = flags.get("rec_labels").empty()
                        ? load_det(flags.get("det_labels"), flags.get_int("limit_images"))
                        : load_rec(flags.get("rec_labels"), flags.get_int("limit"));
  if (data.crops.empty()) throw Error("no crops loaded");

  OcrParams base = default_ocr_params();
  base.runtime.cpu_threads = flags.get_int("cpu_threads");
  struct Setting {
    int batch, step, workers, min_width;
    std::unique_ptr<TextRecognizer> rec;
    std::vector<double> ms;
    std::vector<RecText> texts;
    long calls = 0;
  };
  std::vector<Setting> settings;
  for (int min_width : flags.get_int_list("min_widths"))
  for (int workers : flags.get_int_list("workers"))
    for (int step : flags.get_int_list("width_steps"))
      for (int batch : flags.get_int_list("batches")) {
        RecParams p = base.rec;
        p.batch_num = batch;
        p.width_step = step;
        p.workers = workers;
        p.min_width = min_width;
        settings.push_back({batch, step, workers, min_width, std::make_unique<TextRecognizer>(p, base.runtime), {}, {}, 0});
      }
  // Warm-up: every setting once on the first 16 crops.
  const std::vector<cv::Mat> warm(data.crops.begin(), data.crops.begin() + std::min<size_t>(16, data.crops.size()));
  for (auto& s : settings) s.rec->recognize(warm);

  const int rounds = flags.get_int("rounds");
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < settings.size(); ++k) {
      Setting& s = settings[(k + static_cast<size_t>(r)) % settings.size()];
      s.rec->reset_stats();
      Stopwatch sw;
      s.texts = s.rec->recognize(data.crops);
      s.ms.push_back(sw.elapsed_ms());
      s.calls = s.rec->stats().calls;
    }

  std::printf("ocrforge_rec_bench: %zu crops, cpu_threads=%d, %d rounds\n", data.crops.size(),
              base.runtime.cpu_threads, rounds);
  std::printf("%6s %7s %6s %6s %10s %10s %8s %8s %10s %12s\n", "min_w", "workers", "step", "batch", "ms/crop", "min ms/crop",
              "calls", "acc", "norm_ed", "diff_vs_b1");
  for (const auto& s : settings) {
    RecMetric m;
    for (size_t i = 0; i < s.texts.size(); ++i) m.add(s.texts[i].text, data.truth[i]);
    const Setting* b1 = nullptr;
    for (const auto& o : settings)
      if (o.step == s.step && o.min_width == s.min_width && o.batch == 1 && (!b1 || o.workers == 1)) b1 = &o;
    std::string diff = "-";
    if (b1) {
      long d = 0;
      for (size_t i = 0; i < s.texts.size(); ++i) d += s.texts[i].text != b1->texts[i].text;
      diff = std::to_string(d);
    }
    const double n = static_cast<double>(data.crops.size());
    std::printf("%6d %4d x%d %6d %6d %10.2f %10.2f %8ld %8.4f %10.4f %12s\n", s.min_width, s.rec->workers(),
                s.rec->threads_per_worker(), s.step, s.batch, median(s.ms) / n,
                *std::min_element(s.ms.begin(), s.ms.end()) / n, s.calls, m.acc(), m.norm_edit_dis(), diff.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ocrforge::UsageError& e) {
    std::fprintf(stderr, "ocrforge_rec_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ocrforge_rec_bench: error: %s\n", e.what());
    return 1;
  }
}
