// The system pipeline (PaddleOCR's predict_system): detect -> sort -> crop ->
// (direction classifier) -> batched recognition -> drop low scores.
//
//   ocrforge::OcrParams p = ocrforge::default_ocr_params();
//   p.use_angle_cls = true;
//   ocrforge::OcrPipeline ocr(p);
//   ocrforge::OcrResult r = ocr.run(cv::imread("sign.jpg"));
//   for (const auto& line : r.lines) std::cout << line.text << "\n";
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "ocrforge/infer/params.h"
#include "ocrforge/infer/stage_stats.h"
#include "ocrforge/infer/text_classifier.h"
#include "ocrforge/infer/text_detector.h"
#include "ocrforge/infer/text_recognizer.h"

namespace ocrforge {

// One word of a line (OcrParams::word_boxes): its box is cut from the line's
// box at the word's CTC time steps, clockwise from its top-left in reading
// direction, image pixels.
struct OcrWord {
  std::string text;
  Quad box;
  float score = 0.f;  // mean probability of its characters
};

struct OcrLine {
  Quad box;                            // clockwise from top-left, image pixels
  std::vector<cv::Point2f> polygon;    // == box in quad mode
  float det_score = 0.f;
  std::string text;
  float score = 0.f;                   // recognition confidence
  std::string cls_label;               // "" when the classifier did not run
  float cls_score = 0.f;
  cv::Mat crop;                        // the line image fed to rec (only with keep_crops)
  std::vector<OcrWord> words;          // only with OcrParams::word_boxes
};

// The words of one recognised line (OcrParams::word_boxes): split_words on
// the recogniser's output, each span carried back into the image through the
// line's crop (`flipped`: the classifier turned the crop by 180 degrees).
std::vector<OcrWord> line_words(const RecText& rec, const Quad& box, bool flipped);

// Multiplies every coordinate of `line` (box, polygon, word boxes) by `s`.
void scale_line(OcrLine& line, float s);

struct OcrResult {
  cv::Size image_size;
  std::vector<OcrLine> detected;  // every detected box, in reading order (dt_polys)
  std::vector<OcrLine> lines;     // recognised lines with score >= drop_score (rec_*)
  double det_ms = 0, cls_ms = 0, rec_ms = 0, total_ms = 0;
};

// What one run may set differently from the pipeline's parameters (a
// server's per-request switches); the models stay the ones loaded.
struct RunParams {
  DetResizeParams det_resize;
  DbPostParams det_post;
  bool use_angle_cls = false;  // true needs the classifier loaded (OcrParams::use_angle_cls)
  float drop_score = 0.5f;
};

// The per-call part of `params`, and `params` with a call's settings applied
// (the OCR parameters a run with `settings` used, for result documents).
RunParams run_params_of(const OcrParams& params);
OcrParams params_with(OcrParams params, const RunParams& settings);

class OcrPipeline {
 public:
  // Loads det, rec and (when use_angle_cls) cls models; throws Error on any
  // missing or unfit model or dictionary.
  explicit OcrPipeline(const OcrParams& params);

  // `bgr`: 8-bit, 3 channels. `coord_scale` multiplies every output
  // coordinate (see LoadedImage::scale). `keep_crops` fills OcrLine::crop.
  OcrResult run(const cv::Mat& bgr, float coord_scale = 1.f, bool keep_crops = false);
  // As run(), with this call's settings. Safe to call from several threads at
  // once on one pipeline: the models are shared read-only (ORT sessions
  // allow concurrent runs) and the predictors merge their stats under locks.
  // Throws Error when settings.use_angle_cls asks for a classifier that was
  // not loaded.
  OcrResult run(const cv::Mat& bgr, const RunParams& settings, float coord_scale = 1.f,
                bool keep_crops = false) const;
  // The settings run(bgr) uses: the pipeline's parameters.
  RunParams default_settings() const;

  const OcrParams& params() const { return params_; }
  TextDetector& detector() { return *det_; }
  TextRecognizer& recognizer() { return *rec_; }
  TextClassifier* classifier() { return cls_.get(); }  // null without use_angle_cls
  void reset_stats();

 private:
  OcrParams params_;
  std::unique_ptr<TextDetector> det_;
  std::unique_ptr<TextClassifier> cls_;
  std::unique_ptr<TextRecognizer> rec_;
};

}  // namespace ocrforge
