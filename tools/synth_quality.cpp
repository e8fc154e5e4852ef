// Measures what docs/synth.md reports about `ocrforge synth`:
//   speed   rec crops per second (generation + JPEG writing, --workers threads)
//   rec     accuracy of the default PP-OCRv4 recogniser on generated crops
//           (the labels are right and the text is legible)
//   det     hmean of the default PP-OCRv4 detector against the generated
//           polygons (PaddleOCR's DetMetric)
// and optionally saves a few example images (--examples DIR).
//   ./build/synth_quality --rec 500 --det 50 --speed 3000 --workers 2 --examples docs/img/synth
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/synth/synth.h"
#include "ocrforge/vision/det_metric.h"
#include "ocrforge/vision/rec_metric.h"

namespace fs = std::filesystem;
using namespace ocrforge;

namespace {

std::vector<cv::Point2f> to_points(const DetRegion& r) {
  std::vector<cv::Point2f> out;
  for (const auto& p : r.points) out.emplace_back(p[0], p[1]);
  return out;
}

// Into an empty folder: overwriting thousands of files is much slower on
// file systems mounted with `discard` (each truncation trims blocks).
// CPU time per crop is printed too: unlike crops/s it does not depend on
// what else runs on the machine.
void measure_speed(const std::string& out, long num, int workers) {
  SynthRecParams p;
  p.common.out_dir = out + "/speed";
  p.common.num = num;
  p.common.workers = workers;
  fs::remove_all(p.common.out_dir);
  const std::clock_t cpu0 = std::clock();
  const SynthReport r = synth_rec(p);
  const double cpu_ms = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  std::printf("speed: %ld rec crops in %.2f s with %d workers = %.0f crops/s (CPU %.2f ms per crop)\n", r.samples,
              r.seconds, r.workers, r.samples / r.seconds, cpu_ms / r.samples);
}

void measure_rec(const std::string& out, long num, int workers, uint64_t seed, const std::string& models, int show) {
  SynthRecParams p;
  p.common.out_dir = out + "/rec";
  p.common.num = num;
  p.common.workers = workers;
  p.common.seed = seed;
  synth_rec(p);
  RecParams rp;
  rp.model_dir = models + "/rec";
  rp.char_dict_path = models + "/ppocr_keys_v1.txt";
  TextRecognizer rec(rp, RuntimeParams{});
  const auto labels = read_rec_labels(p.common.out_dir + "/rec_gt.txt");
  std::vector<cv::Mat> crops;
  for (const auto& l : labels) crops.push_back(cv::imread(p.common.out_dir + "/" + l.path));
  const std::vector<RecText> got = rec.recognize(crops);
  RecMetric metric;  // PaddleOCR's default: spaces ignored
  int shown = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    metric.add(got[i].text, labels[i].text);
    RecMetric one;
    one.add(got[i].text, labels[i].text);
    if (one.acc() < 1 && shown++ < show)
      std::printf("  rec miss %s: label '%s' read '%s'\n", labels[i].path.c_str(), labels[i].text.c_str(),
                  got[i].text.c_str());
  }
  std::printf("rec: %ld crops, acc %.4f, norm_edit_dis %.4f\n", metric.count(), metric.acc(), metric.norm_edit_dis());
}

void measure_det(const std::string& out, long num, int workers, uint64_t seed, const std::string& models, int show) {
  SynthDetParams p;
  p.common.out_dir = out + "/det";
  p.common.num = num;
  p.common.workers = workers;
  p.common.seed = seed + 4;
  const SynthReport r = synth_det(p);
  DetParams dp;
  dp.model_dir = models + "/det";
  TextDetector det(dp, RuntimeParams{});
  DetMetric metric;
  int shown = 0;
  for (const auto& l : read_det_labels(p.common.out_dir + "/det_gt.txt")) {
    std::vector<DetGtPolygon> gt;
    for (const auto& reg : l.regions) gt.push_back({to_points(reg), reg.ignore()});
    std::vector<std::vector<cv::Point2f>> found;
    for (const auto& b : det.detect(cv::imread(p.common.out_dir + "/" + l.path))) found.push_back(b.polygon);
    const DetImageCounts c = metric.add(gt, found);
    if ((c.matched < c.gt_care || c.matched < c.det_care) && shown++ < show)
      std::printf("  det %s: %ld labelled, %ld found, %ld matched\n", l.path.c_str(), c.gt_care, c.det_care,
                  c.matched);
  }
  std::printf("det: %ld images, %ld lines (%ld ###), precision %.4f, recall %.4f, hmean %.4f\n", r.samples,
              r.regions, r.ignored, metric.precision(), metric.recall(), metric.hmean());
}

// Stacks the first `n` crops of a rec set into one picture.
void save_strip(const std::string& set_dir, size_t n, const std::string& path) {
  const auto recs = read_rec_labels(set_dir + "/rec_gt.txt");
  std::vector<cv::Mat> rows;
  int width = 0;
  for (size_t i = 0; i < recs.size() && i < n; ++i) {
    rows.push_back(cv::imread(set_dir + "/" + recs[i].path));
    width = std::max(width, rows.back().cols);
  }
  for (auto& r : rows) cv::copyMakeBorder(r, r, 2, 2, 0, width - r.cols, cv::BORDER_CONSTANT, cv::Scalar::all(255));
  cv::Mat strip;
  cv::vconcat(rows, strip);
  cv::imwrite(path, strip, {cv::IMWRITE_PNG_COMPRESSION, 9});
}

// Example pictures for the docs: English and Chinese rec crops as they are,
// det images with their label polygons (green = readable, red = ###).
void save_examples(const std::string& out, const std::string& dir, const std::string& models) {
  fs::create_directories(dir);
  save_strip(out + "/rec", 10, dir + "/rec_examples.png");
  SynthRecParams zh;
  zh.common.out_dir = out + "/zh";
  zh.common.num = 8;
  zh.common.seed = 3;
  zh.common.text.dict_path = models + "/ppocr_keys_v1.txt";
  zh.common.fonts = {"/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/dejavu"};
  synth_rec(zh);
  save_strip(zh.common.out_dir, 8, dir + "/rec_examples_zh.png");
  const auto dets = read_det_labels(out + "/det/det_gt.txt");
  for (size_t i = 0; i < dets.size() && i < 2; ++i) {
    cv::Mat img = cv::imread(out + "/det/" + dets[i].path);
    cv::resize(img, img, cv::Size(), 0.6, 0.6, cv::INTER_AREA);
    for (const auto& reg : dets[i].regions) {
      std::vector<cv::Point> poly;
      for (const auto& p : reg.points) poly.emplace_back(cvRound(p[0] * 0.6), cvRound(p[1] * 0.6));
      cv::polylines(img, poly, true, reg.ignore() ? cv::Scalar(0, 0, 255) : cv::Scalar(0, 200, 0), 1, cv::LINE_AA);
    }
    cv::imwrite(dir + "/det_example_" + std::to_string(i) + ".png", img, {cv::IMWRITE_PNG_COMPRESSION, 9});
  }
  std::printf("examples written to %s\n", dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  cv::setNumThreads(1);  // the generator's own workers use the cores
  FlagSet f("synth_quality");
  f.add("rec", "500", "rec crops to generate and read (0 = skip)");
  f.add("det", "50", "det images to generate and detect (0 = skip)");
  f.add("speed", "3000", "rec crops for the speed figure (0 = skip)");
  f.add("workers", "2", "generator threads");
  f.add("seed", "7", "seed of the rec set (the det set uses seed + 4)");
  f.add("out", (fs::temp_directory_path() / "ocrforge_synth_quality").string(), "scratch folder");
  f.add("models", "models/PP-OCRv4", "default PP-OCRv4 models (det/, rec/, ppocr_keys_v1.txt)");
  f.add("examples", "", "save example PNGs into this folder");
  f.add("show", "10", "misses to print per task");
  try {
    f.parse(std::vector<std::string>(argv + 1, argv + argc));
    if (f.help_requested()) {
      std::cout << f.help_text();
      return 0;
    }
    const std::string out = f.get("out");
    const int workers = f.get_int("workers"), show = f.get_int("show");
    const uint64_t seed = static_cast<uint64_t>(f.get_int("seed"));
    if (f.get_int("speed") > 0) measure_speed(out, f.get_int("speed"), workers);
    if (f.get_int("rec") > 0) measure_rec(out, f.get_int("rec"), workers, seed, f.get("models"), show);
    if (f.get_int("det") > 0) measure_det(out, f.get_int("det"), workers, seed, f.get("models"), show);
    if (!f.get("examples").empty()) save_examples(out, f.get("examples"), f.get("models"));
  } catch (const Error& e) {
    std::fprintf(stderr, "synth_quality: %s\n", e.what());
    return 1;
  }
  return 0;
}
