// ocrforge_pipeline_bench: times ocrforge::OcrPipeline (det -> cls -> rec) on
// a folder of images and watches memory over a long run.
//
//   ocrforge_pipeline_bench --image_dir tests/data/samples --iterations 1000 --cpu_threads 2
//
// The loop processes `iterations` images, cycling through the folder; every
// iteration includes decoding (read_image), as the CLI does. Reported:
//   1. wall time per image (median over its cycles) and per stage, with each
//      stage split into preprocess / ORT Run / postprocess (StageStats);
//   2. the share of the loop's wall time spent outside ORT's Run:
//      1 - sum(OrtModel::run_ms of det, cls, rec) / loop wall time;
//   3. RSS (VmRSS) after 10 images and after `iterations` images, plus
//      checkpoints in between, and the growth from 10 to the end.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <opencv2/core/utility.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/infer/ocr_stream.h"
#include "ocrforge/infer/ort_model.h"

namespace {

using namespace ocrforge;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Sum of the time spent inside ORT's Run by all models of the pipeline.
double ort_run_ms(OcrPipeline& ocr) {
  double ms = ocr.detector().model().run_ms() + ocr.recognizer().model().run_ms();
  if (ocr.classifier()) ms += ocr.classifier()->model().run_ms();
  return ms;
}

// Per-sample timings of one iteration, in ms.
struct Sample {
  double decode = 0, det = 0, cls = 0, rec = 0, other = 0, wall = 0;
};

// One row of the stage table: totals over the loop, printed per image.
void print_stage(const char* name, const StageStats& s, double stage_wall_ms, long n) {
  const double gap = stage_wall_ms - s.total_ms();  // inside the stage, outside the stats (e.g. sort_boxes)
  std::printf("%-6s %8ld %10.2f %10.2f %10.2f %10.2f %10.2f\n", name, s.images, s.preprocess_ms / n,
              s.inference_ms / n, s.postprocess_ms / n, gap / n, stage_wall_ms / n);
}

// The pipelined runner over the same images: total wall time only (the stages
// overlap, so per-stage times and the share outside ORT do not add up).
int run_stream(const OcrParams& params, const std::vector<std::string>& images, long iterations,
               const std::vector<int>& threads) {
  if (threads.size() != 2) throw UsageError("--stream takes DET,REC thread counts, e.g. --stream 1,1");
  StreamParams opt;
  opt.det_threads = threads[0];
  opt.rec_threads = threads[1];
  OcrStream stream(params, opt);
  stream.run({images.front()}, [](StreamResult&&) {});  // warm-up
  std::vector<std::string> paths;
  for (long i = 0; i < iterations; ++i) paths.push_back(images[static_cast<size_t>(i) % images.size()]);
  long failed = 0;
  Stopwatch sw;
  stream.run(paths, [&](StreamResult&& r) { failed += !r.ok; });
  const double wall = sw.elapsed_ms();
  std::printf("OcrStream det_threads=%d rec_threads=%d: %ld images, %ld failed, %.1f ms\n", opt.det_threads,
              opt.rec_threads, iterations, failed, wall);
  std::printf("SUMMARY mean_ms=%.1f median_ms=%.1f outside_ort=-1 rss10=0 rss_end=%.1f peak=%.1f\n",
              wall / static_cast<double>(iterations), wall / static_cast<double>(iterations), current_rss_mb(),
              peak_rss_mb());
  return failed == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
  FlagSet flags("pipeline_bench");
  flags.add("image_dir", "tests/data/samples", "folder (or one image) to cycle through");
  flags.add("iterations", "1000", "images to process in the measured loop (cycling through the folder)");
  const OcrParams defaults;
  flags.add("cpu_threads", std::to_string(defaults.runtime.cpu_threads), "ONNX Runtime intra-op threads");
  flags.add("rec_batch_num", std::to_string(defaults.rec.batch_num), "crops per recognition call");
  flags.add("rec_min_width", std::to_string(defaults.rec.min_width), "RecParams::min_width (0: image_w)");
  flags.add("rec_workers", std::to_string(defaults.rec.workers), "recognition batches run at once (0: one per cpu thread)");
  flags.add("rec_width_step", std::to_string(defaults.rec.width_step), "RecParams::width_step");
  flags.add("graph_optimization", defaults.runtime.graph_optimization, "disable, basic, extended or all");
  flags.add_bool("memory_pattern", defaults.runtime.memory_pattern, "ORT memory pattern");
  flags.add_bool("allow_spinning", defaults.runtime.allow_spinning, "session.intra_op.allow_spinning");
  flags.add("warmup_runs", "2", "runs on the first image before measuring (not counted)");
  flags.add_bool("use_angle_cls", true, "run the direction classifier");
  flags.add_bool("ir_optim", defaults.runtime.ir_optim, "exact simplified graphs (RuntimeParams::ir_optim)");
  flags.add_bool("memory_arena", defaults.runtime.memory_arena, "ONNX Runtime CPU memory arena (RuntimeParams::memory_arena)");
  flags.add_bool("shared_arena", defaults.runtime.shared_arena,
                 "one CPU arena for every model (RuntimeParams::shared_arena)");
  flags.add("save_results", "", "write the first pass's lines here, as PaddleOCR's system_results.txt");
  flags.add("stream", "", "DET,REC: run OcrStream with these ORT threads per stage instead of the sequential loop "
            "(reports only the SUMMARY line)");
  flags.add("rss_every", "0", "also record RSS every N images (0: only the fixed checkpoints)");
  flags.parse(std::vector<std::string>(argv + 1, argv + argc));
  if (flags.help_requested()) {
    std::fputs(flags.help_text().c_str(), stdout);
    return 0;
  }
  const long iterations = flags.get_int("iterations");
  if (iterations < 1) throw UsageError("--iterations must be >= 1");

  cv::setNumThreads(1);  // as the ocrforge CLI: ORT owns the cores
  OcrParams params = default_ocr_params();
  params.runtime.cpu_threads = flags.get_int("cpu_threads");
  params.use_angle_cls = flags.get_bool("use_angle_cls");
  params.runtime.memory_arena = flags.get_bool("memory_arena");
  params.runtime.ir_optim = flags.get_bool("ir_optim");
  params.runtime.shared_arena = flags.get_bool("shared_arena");
  params.runtime.graph_optimization = flags.get("graph_optimization");
  params.runtime.memory_pattern = flags.get_bool("memory_pattern");
  params.runtime.allow_spinning = flags.get_bool("allow_spinning");
  params.rec.batch_num = flags.get_int("rec_batch_num");
  params.rec.workers = flags.get_int("rec_workers");
  params.rec.min_width = flags.get_int("rec_min_width");
  params.rec.width_step = flags.get_int("rec_width_step");
  const int max_side = params.det.resize.max_side_limit;
  const std::vector<std::string> images = list_images(flags.get("image_dir"));

  if (!flags.get("stream").empty()) return run_stream(params, images, iterations, flags.get_int_list("stream"));

  const double rss_start = current_rss_mb();
  OcrPipeline ocr(params);
  {  // Warm-up (ORT allocates and optimises on first runs), then zero the stats.
    LoadedImage img = read_image(images.front(), max_side);
    for (int i = 0; i < flags.get_int("warmup_runs"); ++i) ocr.run(img.bgr, img.scale);
  }
  ocr.reset_stats();
  const double ort_before = ort_run_ms(ocr);  // OrtModel timing cannot be reset through the pipeline
  const double rss_loaded = current_rss_mb();

  std::printf("ocrforge_pipeline_bench: %zu images in %s, %ld iterations, cpu_threads=%d (effective %d), "
              "use_angle_cls=%s, rec_batch_num=%d, rec_workers=%d x %d threads, rec_width_step=%d, graph_optimization=%s, memory_pattern=%d, "
              "memory_arena=%d, shared_arena=%d, allow_spinning=%d, ir_optim=%d\n", images.size(), flags.get("image_dir").c_str(), iterations,
              params.runtime.cpu_threads, effective_threads(params.runtime.cpu_threads),
              params.use_angle_cls ? "true" : "false", params.rec.batch_num, ocr.recognizer().workers(),
              ocr.recognizer().threads_per_worker(), params.rec.width_step,
              params.runtime.graph_optimization.c_str(), params.runtime.memory_pattern, params.runtime.memory_arena,
              params.runtime.shared_arena, params.runtime.allow_spinning, params.runtime.ir_optim);
  std::printf("CPU: %s, %u hardware threads; %s; ONNX Runtime %s\n\n", cpu_model().c_str(),
              cv::getNumberOfCPUs(), os_version().c_str(), onnxruntime_version().c_str());

  // RSS checkpoints: 10, a few round numbers, every --rss_every images, the end.
  std::vector<long> checkpoints;
  for (long c : {10L, 50L, 100L, 250L, 500L, 1000L, 2500L, 5000L, 10000L})
    if (c < iterations) checkpoints.push_back(c);
  const long every = flags.get_int("rss_every");
  for (long c = every; every > 0 && c < iterations; c += every) checkpoints.push_back(c);
  checkpoints.push_back(iterations);
  std::map<long, double> rss;

  std::ofstream results_file;
  if (!flags.get("save_results").empty()) {
    results_file.open(flags.get("save_results"));
    if (!results_file) throw Error("cannot write '" + flags.get("save_results") + "' (--save_results)");
  }
  std::vector<std::vector<Sample>> per_image(images.size());
  std::vector<size_t> lines(images.size(), 0);
  std::vector<cv::Size> sizes(images.size());
  double decode_ms = 0, det_ms = 0, cls_ms = 0, rec_ms = 0, other_ms = 0;
  Stopwatch loop;
  for (long it = 0; it < iterations; ++it) {
    const size_t k = static_cast<size_t>(it) % images.size();
    Stopwatch one;
    LoadedImage img = read_image(images[k], max_side);
    Sample s;
    s.decode = one.elapsed_ms();
    OcrResult r = ocr.run(img.bgr, img.scale);
    s.wall = one.elapsed_ms();
    s.det = r.det_ms, s.cls = r.cls_ms, s.rec = r.rec_ms;
    s.other = r.total_ms - r.det_ms - r.cls_ms - r.rec_ms;  // cropping, result assembly
    per_image[k].push_back(s);
    if (results_file && static_cast<size_t>(it) < images.size()) {
      nlohmann::json lines_json = nlohmann::json::array();
      for (const auto& line : r.lines) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& p : line.box) pts.push_back({static_cast<int>(p.x), static_cast<int>(p.y)});
        lines_json.push_back({{"transcription", line.text}, {"points", pts}});
      }
      results_file << images[k] << "\t" << lines_json.dump() << "\n";
    }
    lines[k] = r.lines.size();
    sizes[k] = img.original;
    decode_ms += s.decode, det_ms += s.det, cls_ms += s.cls, rec_ms += s.rec, other_ms += s.other;
    if (std::find(checkpoints.begin(), checkpoints.end(), it + 1) != checkpoints.end())
      rss[it + 1] = current_rss_mb();
  }
  const double wall_ms = loop.elapsed_ms();
  const double ort_ms = ort_run_ms(ocr) - ort_before;
  const long n = iterations;

  // 1a. Per image (median over its cycles).
  std::printf("Per image, median ms over %ld cycle(s) (wall = decode + det + cls + rec + crop/other)\n",
              (n + static_cast<long>(images.size()) - 1) / static_cast<long>(images.size()));
  std::printf("%-22s %11s %5s %8s %8s %8s %8s %8s %8s\n", "image", "size", "lines", "decode", "det", "cls",
              "rec", "other", "wall");
  for (size_t k = 0; k < images.size(); ++k) {
    if (per_image[k].empty()) continue;
    auto med = [&](double Sample::*f) {
      std::vector<double> v;
      for (const auto& s : per_image[k]) v.push_back(s.*f);
      return median(v);
    };
    const std::string size = std::to_string(sizes[k].width) + "x" + std::to_string(sizes[k].height);
    std::printf("%-22s %11s %5zu %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n", path_filename(images[k]).c_str(),
                size.c_str(), lines[k], med(&Sample::decode), med(&Sample::det), med(&Sample::cls),
                med(&Sample::rec), med(&Sample::other), med(&Sample::wall));
  }

  // 1b. Per stage, mean ms per image over the whole loop.
  std::printf("\nPer stage, mean ms per image over %ld images (gap = stage wall - pre - ORT - post)\n", n);
  std::printf("%-6s %8s %10s %10s %10s %10s %10s\n", "stage", "items", "preproc", "ORT Run", "postproc", "gap",
              "stage");
  print_stage("det", ocr.detector().stats(), det_ms, n);
  if (ocr.classifier()) print_stage("cls", ocr.classifier()->stats(), cls_ms, n);
  print_stage("rec", ocr.recognizer().stats(), rec_ms, n);
  std::printf("%-6s %8s %10s %10s %10s %10s %10.2f\n", "decode", "", "", "", "", "", decode_ms / n);
  std::printf("%-6s %8s %10s %10s %10s %10s %10.2f\n", "crop+", "", "", "", "", "", other_ms / n);
  std::printf("%-6s %8s %10s %10.2f %10s %10s %10.2f\n", "total", "", "", ort_ms / n, "", "", wall_ms / n);

  // 2. Share outside ORT's Run. With several rec workers, runs overlap and
  // their sum exceeds the wall time: the share is only defined for one.
  const double outside = 1.0 - ort_ms / wall_ms;
  if (ocr.recognizer().workers() == 1)
    std::printf("\nLoop wall %.1f ms, inside ORT Run %.1f ms: share outside ORT = %.1f%% (goal < 10%%: %s)\n",
                wall_ms, ort_ms, 100 * outside, outside < 0.10 ? "met" : "MISSED");
  else
    std::printf("\nLoop wall %.1f ms, ORT Run summed over %d rec workers %.1f ms: share outside ORT not defined "
                "(run with --rec_workers 1)\n", wall_ms, ocr.recognizer().workers(), ort_ms);

  // 3. Memory.
  std::printf("\nRSS (MiB): start %.1f, models loaded + warm-up %.1f, peak %.1f\n", rss_start, rss_loaded,
              peak_rss_mb());
  std::printf("%10s %10s\n", "images", "RSS MiB");
  for (const auto& [count, mb] : rss) std::printf("%10ld %10.1f\n", count, mb);
  if (iterations > 10) {
    const double growth = rss.at(iterations) / rss.at(10) - 1.0;
    std::printf("RSS growth 10 -> %ld images: %+.1f%% (goal < 5%%: %s)\n", iterations, 100 * growth,
                growth < 0.05 ? "met" : "MISSED");
  }
  // One line for scripts: ms per image (mean, and sum of per-image medians / images), share outside ORT, RSS.
  double med_sum = 0;
  size_t med_n = 0;
  for (const auto& v : per_image) {
    if (v.empty()) continue;
    std::vector<double> w;
    for (const auto& s : v) w.push_back(s.wall);
    med_sum += median(w);
    ++med_n;
  }
  std::printf("SUMMARY mean_ms=%.1f median_ms=%.1f outside_ort=%.4f rss10=%.1f rss_end=%.1f peak=%.1f\n", wall_ms / n,
              med_n ? med_sum / static_cast<double>(med_n) : 0.0, outside, rss.count(10) ? rss.at(10) : 0.0,
              rss.at(iterations), peak_rss_mb());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ocrforge::UsageError& e) {
    std::fprintf(stderr, "ocrforge_pipeline_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ocrforge_pipeline_bench: error: %s\n", e.what());
    return 1;
  }
}
