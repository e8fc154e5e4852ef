// `ocrforge ocr`: PaddleOCR's predict_system on images. Every image is
// processed even when others fail (whatever they throw); the exit code is 0
// only if all succeeded. Over several images the stages of consecutive
// images overlap (OcrStream, --pipelined, the default); --benchmark runs them
// one after the other, so each stage's time is its own.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "benchmark_run.h"
#include "commands.h"
#include "document_flags.h"
#include "ocrforge/document/document_inputs.h"
#include "image_loop.h"
#include "streamed_image_loop.h"
#include "ocrforge/infer/ocr_flags.h"
#include "ocr_outputs.h"
#include "ocrforge/core/control_chars.h"
#include "ocrforge/core/error.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/output_paths.h"
#include "ocrforge/core/process_info.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/core/text.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/infer/ocr_stream.h"

namespace ocrforge {

static void warm_up(OcrPipeline& ocr, const std::vector<std::string>& images, int runs, const ImageReaderFn& reader) {
  for (const auto& path : images) {
    try {
      LoadedImage img = reader(path);
      for (int i = 0; i < runs; ++i) ocr.run(img.bgr, img.scale);
      break;
    } catch (const std::exception&) {
      continue;  // the main loop reports unusable images
    }
  }
  ocr.reset_stats();
}

// --save_label must never replace an input (`--save_label photo.jpg`), nor
// become one: a label file with an image's extension inside --image_dir
// would be read as an image by the next run.
static void refuse_label_over_inputs(const std::string& label, const std::string& image_dir,
                                     const std::vector<std::string>& files) {
  InputFiles inputs;
  for (const auto& f : files) inputs.add(f);
  if (const std::string hit = inputs.find(label); !hit.empty())
    refuse_overwriting_input(label, "--save_label", hit, "the input image");
  std::error_code ec;
  const bool folder = std::filesystem::is_directory(image_dir, ec);
  std::string ext = to_lower(std::filesystem::path(label).extension().string());
  const auto& images = image_extensions();
  if (folder && is_within(label, image_dir) && (ext == ".pdf" || std::find(images.begin(), images.end(), ext) != images.end()))
    throw UsageError("--save_label: '" + label + "' is inside --image_dir ('" + image_dir + "') with an image's extension (" +
                     ext + "), so the next run would read it as an image; name it .txt (e.g. Label.txt)");
}

int cmd_ocr(const Args& args) {
  FlagSet flags("ocr");
  declare_ocr_flags(flags);
  flags.add_bool("pipelined", true,
                 "overlap decoding, detection and recognition of consecutive images (results stay in input "
                 "order); off, or with --benchmark: one image after the other");
  declare_document_flags(flags);
  const std::vector<std::string> extra = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << flags.help_text();
    return 0;
  }
  if (!extra.empty())
    throw UsageError("unexpected argument '" + extra[0] + "' (flags are written --name=value or --name value)");
  const std::string image_dir = flags.get("image_dir");
  if (image_dir.empty()) throw UsageError("--image_dir is required (an image file or a folder)");
  OcrParams params = ocr_params_from_flags(flags);
  const ImageReadParams read = image_read_params_from_flags(flags);
  const DocumentFlags doc = document_flags(flags, read);
  params.word_boxes = !doc.formats.empty();

  OcrOutputOptions out_opt;
  out_opt.save_dir = flags.get("draw_img_save_dir");
  // PaddleOCR visualises every image by default; with --output_format the
  // documents are the result, and a full-size PNG per page would cost more
  // than the OCR itself, so then only an explicit --visualize draws.
  out_opt.visualize = doc.formats.empty() || flags.was_set("visualize") ? flags.get_bool("visualize") : false;
  out_opt.font_path = flags.get("vis_font_path");
  out_opt.save_crops = flags.get_bool("save_crop_res");
  out_opt.crop_dir = flags.get("crop_res_save_dir");
  out_opt.label_file = flags.get("save_label");
  refuse_output_in_input(image_dir, out_opt.save_dir, "--draw_img_save_dir");
  if (out_opt.save_crops) refuse_output_in_input(image_dir, out_opt.crop_dir, "--crop_res_save_dir");
  if (out_opt.visualize) out_opt.font_path = vis_font_or_warn(out_opt.font_path);

  // PDFs and multi-page TIFFs become one item per page (document_inputs.h).
  const std::vector<std::string> files = list_images(image_dir, {".pdf"});
  if (!out_opt.label_file.empty()) refuse_label_over_inputs(out_opt.label_file, image_dir, files);
  DocumentInputs inputs(doc.read);
  const std::vector<InputItem> items = inputs.expand(files, "ocr");
  steady_memory_for_pages(items);
  std::vector<std::string> images;
  for (const auto& it : items) images.push_back(it.key);
  const ImageReaderFn reader = [&inputs](const std::string& key) { return inputs.decode(key); };
  const bool benchmark = flags.get_bool("benchmark");
  const bool pipelined = flags.get_bool("pipelined") && !benchmark && images.size() > 1;
  // The models load before any output is created, so a missing model leaves no files behind.
  StreamedImageLoop loop(read, reader);
  std::unique_ptr<OcrStream> stream;
  std::unique_ptr<OcrPipeline> ocr;
  if (pipelined) {
    StreamParams so;
    so.keep_crops = out_opt.save_crops;
    so.decode = [&loop](const std::string& path) { return loop.decode(path); };
    stream = std::make_unique<OcrStream>(params, so);
  } else {
    ocr = std::make_unique<OcrPipeline>(params);
  }
  for (const std::string& note : (stream ? stream->recognizer() : ocr->recognizer()).notes())
    std::fprintf(stderr, "ocrforge: note: %s\n", note.c_str());
  OcrOutputs outputs(out_opt, params, images);
  name_pages(outputs, items, files);
  const std::map<std::string, std::string> file_stems = output_stems(files);
  DocumentOutputs documents({doc.formats, out_opt.save_dir, doc.render});
  size_t document_failed = 0;
  // One image's results: files, then the log line (with the time its own
  // stages took) and the text.
  const auto report = [&](const std::string& path, const cv::Mat& bgr, const OcrResult& r, double ms) {
    const std::string vis = outputs.write(path, bgr, r);
    if (documents.enabled()) document_failed += add_document_page(documents, inputs, path, bgr, r, file_stems);
    std::fprintf(stderr, "%s: %zu lines in %.1f ms%s%s\n", printable(path).c_str(), r.lines.size(), ms,
                 vis.empty() ? "" : ", visualisation: ", printable(vis).c_str());
    for (const auto& line : r.lines) std::printf("%s\t%.3f\n", line.text.c_str(), line.score);
    std::fflush(stdout);
  };

  if (benchmark) warm_up(*ocr, images, flags.get_int("warmup_runs"), reader);
  Stopwatch total;
  size_t failed = 0;
  if (pipelined) {
    failed = loop.run("ocr", images, *stream, [&](const std::string& path, const StreamResult& r) {
      // total_ms would include the time spent queued behind other images.
      report(path, r.image.bgr, r.result, r.result.det_ms + r.result.cls_ms + r.result.rec_ms);
    });
  } else {
    failed = for_each_image("ocr", images, reader, [&](const std::string& path, LoadedImage& img) {
      const OcrResult r = ocr->run(img.bgr, img.scale, out_opt.save_crops);
      report(path, img.bgr, r, r.total_ms);
    });
  }
  document_failed += finish_documents(documents);
  outputs.finish();
  const double total_s = total.elapsed_ms() / 1000.0;
  failed += inputs.failed() + document_failed;
  const bool pages = items.size() != files.size() || inputs.failed() > 0;
  if (pages)
    std::fprintf(stderr, "%zu pages of %zu files, %zu failed, %.2f s; results in %s\n", items.size(), files.size(),
                 failed, total_s, outputs.system_results_path().c_str());
  else
    std::fprintf(stderr, "%zu images, %zu failed, %.2f s; results in %s\n", images.size(), failed, total_s,
                 outputs.system_results_path().c_str());
  if (benchmark) {
    // The report goes to stderr: stdout carries only the recognised text.
    const double rss = current_rss_mb();
    const auto& rt = params.runtime;
    print_benchmark("det", ocr->detector().model(), ocr->detector().stats(), rt, 1, "dynamic", total_s, rss);
    if (ocr->classifier())
      print_benchmark("cls", ocr->classifier()->model(), ocr->classifier()->stats(), rt, params.cls.batch_num,
                      "dynamic", total_s, rss);
    print_benchmark("rec", ocr->recognizer().model(), ocr->recognizer().stats(), rt, params.rec.batch_num,
                    "dynamic", total_s, rss);
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace ocrforge
