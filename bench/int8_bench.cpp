// ocrforge_int8_bench: fp32 vs int8 (--precision int8) of the det and rec
// models, accuracy and speed measured in one process, the precisions
// alternating every round (A B C, then B C A, ...) so all
// see the same machine load. Prints the INT8 table of docs/benchmarks.md.
//
//   ocrforge_int8_bench --rec_labels ../shared/data/ic15_rec_train/rec_gt_train.txt
//     --det_labels ../shared/data/det_toy/det_gt.txt,../shared/data/sroie_train/det_gt.txt --det_limit 0,50
//
// rec: every crop of the label file (or the first --rec_limit), acc and
// norm_edit_dis (PaddleOCR's RecMetric), ms per crop (the whole
// TextRecognizer::recognize call, batch 1). det: each label file's images
// (the first --det_limit of each), precision / recall / hmean (PaddleOCR's
// DetMetric, IoU 0.5), ms per image (TextDetector::detect: preprocess, ORT,
// DB post-processing), wall and process CPU time. Size: the .onnx file each
// precision loads. --schemes adds int8 weight schemes to compare (s8, s7,
// u8; auto is what --precision int8 picks on this CPU).
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "ocrforge/core/cpu_features.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/label_file.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/int8_model.h"
#include "ocrforge/infer/ort_model.h"
#include "ocrforge/infer/params.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"
#include "ocrforge/onnx/onnx_quantize.h"
#include "ocrforge/vision/det_metric.h"
#include "ocrforge/vision/rec_metric.h"

namespace {

using namespace ocrforge;
namespace fs = std::filesystem;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double mb(const std::string& path) { return static_cast<double>(fs::file_size(path)) / 1e6; }

// CPU time of the whole process (every ORT thread), in ms. Unlike wall time
// it barely moves when other jobs share the cores, so under load the CPU
// column is the one to compare (idle ORT workers do not spin: allow_spinning
// is off by default).
double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + t.tv_usec / 1e3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

struct Row {
  std::string model, precision, data, accuracy;
  std::vector<double> ms;      // wall ms per item, one value per round
  std::vector<double> cpu_ms;  // CPU ms per item, one value per round
  double size_mb = 0;
};

void print_rows(const std::vector<Row>& rows, const std::string& unit) {
  for (const Row& r : rows) {
    const auto mm = std::minmax_element(r.ms.begin(), r.ms.end());
    std::printf("| %s | %s | %s | %s | %.1f (%.1f-%.1f) | %.1f | %.1f |\n", r.model.c_str(), r.precision.c_str(),
                r.data.c_str(), r.accuracy.c_str(), median(r.ms), *mm.first, *mm.second, median(r.cpu_ms),
                r.size_mb);
  }
  (void)unit;
}

// --compare_dynamic: the rejected alternative, every conv as
// DynamicQuantizeLinear + ConvInteger (no calibration), loaded as a plain model.
std::string dynamic_conv_model(const std::string& model_dir, const std::string& cache, const std::string& role,
                               const std::string& flag) {
  QuantizeParams p;
  p.conv = QuantizeParams::ConvMode::Dynamic;
  const std::string out = (fs::path(cache) / ("dynamic-conv-" + role + ".onnx")).string();
  quantize_onnx_model(resolve_model_file(model_dir, flag), out, p);
  return out;
}

struct Variant {
  std::string label;  // the precision column
  RuntimeParams rt;
  std::string model;  // "" = the params' own model
};

// The int8 schemes of the run (--schemes), fp32 first.
std::vector<std::string> g_schemes = {"auto"};

std::vector<Variant> variants(const RuntimeParams& base, const std::string& dynamic_model) {
  std::vector<Variant> v;
  Variant fp32{"fp32", base, ""};
  fp32.rt.precision = "fp32";
  v.push_back(fp32);
  for (const std::string& scheme : g_schemes) {
    Variant x{scheme == "auto" ? "int8" : "int8 " + scheme, base, ""};
    x.rt.precision = "int8";
    x.rt.int8_scheme = scheme;
    v.push_back(x);
  }
  if (!dynamic_model.empty()) v.push_back({"int8, dynamic ConvInteger (not shipped)", base, dynamic_model});
  return v;
}

std::vector<Row> bench_rec(const std::string& labels, int limit, int rounds, const RuntimeParams& base,
                           const RecParams& rec_params, const std::string& dynamic_model) {
  std::vector<cv::Mat> crops;
  std::vector<std::string> truth;
  const std::string dir = label_file_dir(labels);
  for (const auto& l : read_rec_labels(labels)) {
    if (limit > 0 && static_cast<int>(crops.size()) >= limit) break;
    cv::Mat m = cv::imread(dir + "/" + l.path, cv::IMREAD_COLOR);
    if (m.empty()) throw Error("cannot read crop '" + dir + "/" + l.path + "' listed in " + labels);
    crops.push_back(m);
    truth.push_back(l.text);
  }
  if (crops.empty()) throw Error("no crops in " + labels);
  std::vector<std::unique_ptr<TextRecognizer>> recs;
  std::vector<Row> rows;
  for (const Variant& v : variants(base, dynamic_model)) {
    RecParams p = rec_params;
    if (!v.model.empty()) p.model_dir = v.model;
    recs.push_back(std::make_unique<TextRecognizer>(p, v.rt));
    Row r;
    r.model = "PP-OCRv4 rec";
    r.precision = v.label;
    r.data = fs::path(dir).filename().string() + " (" + std::to_string(crops.size()) + " crops)";
    r.size_mb = mb(recs.back()->model().path());
    rows.push_back(r);
  }
  const std::vector<cv::Mat> warm(crops.begin(), crops.begin() + std::min<size_t>(16, crops.size()));
  for (auto& rec : recs) rec->recognize(warm);
  for (int round = 0; round < rounds; ++round)
    for (size_t k = 0; k < recs.size(); ++k) {
      const size_t i = (k + static_cast<size_t>(round)) % recs.size();
      Stopwatch sw;
      const double cpu0 = process_cpu_ms();
      const std::vector<RecText> texts = recs[i]->recognize(crops);
      rows[i].ms.push_back(sw.elapsed_ms() / static_cast<double>(crops.size()));
      rows[i].cpu_ms.push_back((process_cpu_ms() - cpu0) / static_cast<double>(crops.size()));
      if (round == 0) {
        RecMetric m;
        for (size_t c = 0; c < crops.size(); ++c) m.add(texts[c].text, truth[c]);
        char buf[96];
        std::snprintf(buf, sizeof(buf), "acc %.4f, norm_edit_dis %.4f", m.acc(), m.norm_edit_dis());
        rows[i].accuracy = buf;
      }
    }
  return rows;
}

std::vector<Row> bench_det(const std::string& labels, int limit, int rounds, const RuntimeParams& base,
                           const DetParams& det_params, const std::string& dynamic_model) {
  struct Image {
    cv::Mat bgr;
    std::vector<DetGtPolygon> gt;
  };
  std::vector<Image> images;
  const std::string dir = label_file_dir(labels);
  for (const auto& l : read_det_labels(labels)) {
    if (limit > 0 && static_cast<int>(images.size()) >= limit) break;
    Image im;
    im.bgr = cv::imread(dir + "/" + l.path, cv::IMREAD_COLOR);
    if (im.bgr.empty()) throw Error("cannot read image '" + dir + "/" + l.path + "' listed in " + labels);
    for (const auto& r : l.regions) {
      DetGtPolygon g;
      for (const auto& p : r.points) g.points.emplace_back(p[0], p[1]);
      g.ignore = r.ignore();
      im.gt.push_back(std::move(g));
    }
    images.push_back(std::move(im));
  }
  if (images.empty()) throw Error("no images in " + labels);
  std::vector<std::unique_ptr<TextDetector>> dets;
  std::vector<Row> rows;
  for (const Variant& v : variants(base, dynamic_model)) {
    DetParams p = det_params;
    if (!v.model.empty()) p.model_dir = v.model;
    dets.push_back(std::make_unique<TextDetector>(p, v.rt));
    Row r;
    r.model = "PP-OCRv4 det";
    r.precision = v.label;
    r.data = fs::path(dir).filename().string() + " (" + std::to_string(images.size()) + " images)";
    r.size_mb = mb(dets.back()->model().path());
    rows.push_back(r);
  }
  for (auto& d : dets) d->detect(images[0].bgr);
  for (int round = 0; round < rounds; ++round)
    for (size_t k = 0; k < dets.size(); ++k) {
      const size_t i = (k + static_cast<size_t>(round)) % dets.size();
      DetMetric metric;
      Stopwatch sw;
      const double cpu0 = process_cpu_ms();
      for (const Image& im : images) {
        const std::vector<TextBox> boxes = dets[i]->detect(im.bgr);
        std::vector<std::vector<cv::Point2f>> polys;
        for (const auto& b : boxes) polys.push_back(b.polygon);
        metric.add(im.gt, polys);
      }
      rows[i].ms.push_back(sw.elapsed_ms() / static_cast<double>(images.size()));
      rows[i].cpu_ms.push_back((process_cpu_ms() - cpu0) / static_cast<double>(images.size()));
      if (round == 0) {
        char buf[96];
        std::snprintf(buf, sizeof(buf), "P %.4f, R %.4f, hmean %.4f", metric.precision(), metric.recall(),
                      metric.hmean());
        rows[i].accuracy = buf;
      }
    }
  return rows;
}

int run(int argc, char** argv) {
  FlagSet flags("int8_bench");
  flags.add("rec_labels", "", "recognition label file (crops); empty: no rec rows");
  flags.add("rec_limit", "0", "at most this many crops (0: all)");
  flags.add("det_labels", "", "detection label files, comma-separated; empty: no det rows");
  flags.add("det_limit", "0", "at most this many images of each det label file, comma-separated (0: all)");
  flags.add("rounds", "3", "alternating rounds (fp32, int8 / int8, fp32 / ...)");
  flags.add("cpu_threads", std::to_string(RuntimeParams{}.cpu_threads), "ONNX Runtime intra-op threads");
  flags.add("int8_cache_dir", "", "int8 model cache (default: the CLI's)");
  flags.add("schemes", "auto",
            "int8 weight schemes to compare with fp32, comma-separated: auto (what --precision int8 runs on this "
            "CPU), s8, s7, u8");
  flags.add_bool("compare_dynamic", false,
                 "also run every conv as dynamic ConvInteger (the rejected alternative; written to the cache folder)");
  flags.parse(std::vector<std::string>(argv + 1, argv + argc));
  if (flags.help_requested()) {
    std::fputs(flags.help_text().c_str(), stdout);
    return 0;
  }
  cv::setNumThreads(1);
  OcrParams base = default_ocr_params();
  base.runtime.cpu_threads = flags.get_int_at_least("cpu_threads", 1);
  base.runtime.int8_cache_dir = flags.get("int8_cache_dir");
  const int rounds = flags.get_int_at_least("rounds", 1);
  g_schemes = split(flags.get("schemes"), ',');
  for (const std::string& scheme : g_schemes)
    if (scheme != "auto") int8_weights_from_name(scheme);  // an unknown name fails before any work
  char load[128] = "?";
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (!std::fgets(load, sizeof(load), f)) load[0] = '\0';
    std::fclose(f);
  }
  auto first3 = [](const char* l) {
    const std::vector<std::string> f = split(trim(l), ' ');
    return f.size() >= 3 ? f[0] + " " + f[1] + " " + f[2] : trim(l);
  };
  std::string load_start = first3(load);
  std::printf("ocrforge_int8_bench: cpu_threads=%d, %d rounds, load average at start: %s\n", base.runtime.cpu_threads,
              rounds, load_start.c_str());
  std::printf("CPU: %s; %s; --precision int8 here: det %s, rec %s\n\n", cpu_model().c_str(),
              int8_cpu_kind(cpu_features()).c_str(), int8_plan("det", base.runtime, cpu_features()).why.c_str(),
              int8_plan("rec", base.runtime, cpu_features()).why.c_str());
  std::printf("| model | precision | data | accuracy | ms per item, median (min-max) of %d rounds | CPU ms per item, "
              "median | model MB |\n",
              rounds);
  std::printf("|---|---|---|---|---|---|---|\n");
  const bool dyn = flags.get_bool("compare_dynamic");
  const std::string dyn_dir = int8_cache_dir(base.runtime);
  if (dyn) fs::create_directories(dyn_dir);
  if (!flags.get("rec_labels").empty())
    print_rows(bench_rec(flags.get("rec_labels"), flags.get_int("rec_limit"), rounds, base.runtime, base.rec,
                         dyn ? dynamic_conv_model(base.rec.model_dir, dyn_dir, "rec", "--rec_model_dir") : ""),
               "crop");
  if (!flags.get("det_labels").empty()) {
    const std::vector<std::string> files = split(flags.get("det_labels"), ',');
    std::vector<int> limits = flags.get_int_list("det_limit");
    for (size_t i = 0; i < files.size(); ++i)
      print_rows(bench_det(files[i], limits.empty() ? 0 : limits[std::min(i, limits.size() - 1)], rounds,
                           base.runtime, base.det,
                           dyn ? dynamic_conv_model(base.det.model_dir, dyn_dir, "det", "--det_model_dir") : ""),
                 "image");
  }
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (!std::fgets(load, sizeof(load), f)) load[0] = '\0';
    std::fclose(f);
  }
  std::printf("\nload average at end: %s (rec: ms per crop; det: ms per image)\n", first3(load).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ocrforge::UsageError& e) {
    std::fprintf(stderr, "ocrforge_int8_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ocrforge_int8_bench: error: %s\n", e.what());
    return 1;
  }
}
