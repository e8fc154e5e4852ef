// `ocrforge infer det|cls|rec`: one model on whole images, like PaddleOCR's
// predict_det.py / predict_cls.py / predict_rec.py.
//   det: writes <draw_img_save_dir>/det_results.txt and det_res_<name> images
//   cls, rec: print "Predicts of <path>:..." per image
#include <cstdio>
#include <memory>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "benchmark_run.h"
#include "commands.h"
#include "ocrforge/infer/ocr_flags.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/text_classifier.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"
#include "image_loop.h"
#include "ocr_outputs.h"
#include "ocrforge/core/atomic_file.h"
#include "ocrforge/vision/rec_resize.h"
#include "ocrforge/core/checkpoint_path.h"
#include "ocrforge/infer/checkpoint_networks.h"
#include "run_command.h"

namespace fs = std::filesystem;

namespace ocrforge {

// Python's repr of a float as PaddleOCR's logs show it.
static std::string py_float(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

static int infer_det(const FlagSet& flags, const OcrParams& p, const ImageReadParams& read,
                     const std::vector<std::string>& images) {
  // --det_model_dir may name a det training checkpoint (or its
  // save_model_dir): the same resize and post-processing on its LibTorch network.
  const auto det = std::make_unique<TextDetector>(p.det, p.runtime);
  if (is_checkpoint_path(p.det.model_dir))
    std::fprintf(stderr, "detecting with checkpoint %s (LibTorch)\n", det->model().path().c_str());
  auto detect = [&](const cv::Mat& bgr) { return det->detect(bgr); };
  const std::string dir = flags.get("draw_img_save_dir");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw Error("cannot create folder '" + dir + "' (--draw_img_save_dir): " + ec.message());
  FolderLock lock(dir, "--draw_img_save_dir");
  const std::string results_path = (fs::path(dir) / "det_results.txt").string();
  remove_stale_temp_files(results_path);
  StagedFile results(results_path);
  const auto stems = output_stems(images);
  Stopwatch total;
  size_t failed = for_each_image("infer", images, read, [&](const std::string& path, LoadedImage& img) {
    require_line_safe(path_filename(path), "image name", "det_results.txt");
    std::vector<TextBox> boxes = detect(img.bgr);
    std::string json = "[";
    cv::Mat vis = img.bgr.clone();
    for (size_t i = 0; i < boxes.size(); ++i) {
      std::vector<cv::Point> poly;
      std::string pts = "[";
      for (size_t k = 0; k < boxes[i].polygon.size(); ++k) {
        const cv::Point2f q = boxes[i].polygon[k] * img.scale;
        pts += (k ? ", [" : "[") + std::to_string(static_cast<int>(q.x)) + ", " + std::to_string(static_cast<int>(q.y)) + "]";
        poly.emplace_back(boxes[i].polygon[k]);
      }
      json += (i ? ", " : "") + pts + "]";
      cv::polylines(vis, poly, true, cv::Scalar(255, 255, 0), 2);
    }
    const std::string vis_path = (fs::path(dir) / ("det_res_" + stems.at(path) + ".jpg")).string();
    std::vector<uchar> jpg;
    if (!cv::imencode(".jpg", vis, jpg)) throw Error("cannot encode visualisation '" + vis_path + "'");
    write_file_atomic(vis_path, std::string(jpg.begin(), jpg.end()), false);
    try {
      results.append(path_filename(path) + "\t" + json + "]\n");
    } catch (const Error& e) {
      throw RunAborted(std::string(e.what()) + "; stopping, as every later image would be lost the same way");
    }
    std::fprintf(stderr, "%s: %zu boxes, visualisation: %s\n", printable(path).c_str(), boxes.size(),
                 printable(vis_path).c_str());
  });
  results.commit();
  std::fprintf(stderr, "results in %s\n", results_path.c_str());
  if (flags.get_bool("benchmark"))
    print_benchmark("det", det->model(), det->stats(), p.runtime, 1, "dynamic", total.elapsed_ms() / 1000.0, current_rss_mb());
  return failed == 0 ? 0 : 1;
}

// --rec_model_dir may name a training checkpoint (or its save_model_dir):
// its LibTorch network, with the dictionary and input size of its config,
// read by the same recognizer as an export.
static int infer_rec(const FlagSet& flags, const OcrParams& p, const ImageReadParams& read,
                     const std::vector<std::string>& images) {
  TextRecognizer rec(p.rec, p.runtime);
  for (const std::string& note : rec.notes()) std::fprintf(stderr, "ocrforge: note: %s\n", note.c_str());
  if (is_checkpoint_path(p.rec.model_dir))
    std::fprintf(stderr, "recognising with checkpoint %s (LibTorch)\n", rec.model().path().c_str());
  Stopwatch total;
  size_t failed = for_each_image("infer", images, read, [&](const std::string& path, LoadedImage& img) {
    RecText r = rec.recognize({cap_rec_width(img.bgr, p.rec.image_h)})[0];
    std::printf("Predicts of %s:('%s', %s)\n", printable(path).c_str(), r.text.c_str(), py_float(r.score).c_str());
    std::fflush(stdout);
  });
  if (flags.get_bool("benchmark"))
    print_benchmark("rec", rec.model(), rec.stats(), p.runtime, 1, "dynamic", total.elapsed_ms() / 1000.0, current_rss_mb());
  return failed == 0 ? 0 : 1;
}

static int infer_cls(const FlagSet& flags, const OcrParams& p, const ImageReadParams& read,
                     const std::vector<std::string>& images) {
  TextClassifier cls(p.cls, p.runtime);
  Stopwatch total;
  size_t failed = for_each_image("infer", images, read, [&](const std::string& path, LoadedImage& img) {
    std::vector<cv::Mat> crops{img.bgr};
    ClsResult r = cls.classify(crops)[0];
    std::printf("Predicts of %s:['%s', %s]\n", printable(path).c_str(), r.label.c_str(), py_float(r.score).c_str());
    std::fflush(stdout);
  });
  if (flags.get_bool("benchmark"))
    print_benchmark("cls", cls.model(), cls.stats(), p.runtime, 1, "dynamic", total.elapsed_ms() / 1000.0, current_rss_mb());
  return failed == 0 ? 0 : 1;
}

int cmd_infer(const Args& args) {
  FlagSet flags("infer det|cls|rec");
  declare_ocr_flags(flags);
  const std::vector<std::string> pos = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << "ocrforge infer det|cls|rec: run one model\n" << flags.help_text();
    return 0;
  }
  if (pos.size() != 1 || (pos[0] != "det" && pos[0] != "cls" && pos[0] != "rec"))
    throw UsageError("expected exactly one of det, cls, rec (e.g. ocrforge infer rec --image_dir crops/)");
  if (flags.get("image_dir").empty()) throw UsageError("--image_dir is required (an image file or a folder)");
  const OcrParams p = ocr_params_from_flags(flags);
  // A training checkpoint runs in LibTorch, which only ocrforge-train loads
  // (it registers the checkpoint networks at start-up).
  if (!checkpoint_networks_registered() && ((pos[0] == "det" && is_checkpoint_path(p.det.model_dir)) ||
                                            (pos[0] == "rec" && is_checkpoint_path(p.rec.model_dir))))
    return exec_train_binary("infer", args);
  const ImageReadParams read = image_read_params_from_flags(flags);
  if (pos[0] == "det") refuse_output_in_input(flags.get("image_dir"), flags.get("draw_img_save_dir"), "--draw_img_save_dir");
  const std::vector<std::string> images = list_images(flags.get("image_dir"));
  if (pos[0] == "det") return infer_det(flags, p, read, images);
  if (pos[0] == "rec") return infer_rec(flags, p, read, images);
  return infer_cls(flags, p, read, images);
}

}  // namespace ocrforge
