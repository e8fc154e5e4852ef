#include "ocrforge/infer/ocr_pipeline.h"

#include "ocrforge/core/error.h"
#include "ocrforge/core/stopwatch.h"
#include "ocrforge/vision/box_order.h"
#include "ocrforge/vision/crop.h"
#include "ocrforge/vision/rec_resize.h"
#include "ocrforge/vision/word_boxes.h"

namespace ocrforge {

OcrPipeline::OcrPipeline(const OcrParams& params)
    : params_(params),
      det_(std::make_unique<TextDetector>(params.det, params.runtime)),
      cls_(params.use_angle_cls ? std::make_unique<TextClassifier>(params.cls, params.runtime) : nullptr),
      rec_(std::make_unique<TextRecognizer>(params.rec, params.runtime)) {}

void OcrPipeline::reset_stats() {
  det_->reset_stats();
  rec_->reset_stats();
  if (cls_) cls_->reset_stats();
}

void scale_line(OcrLine& line, float s) {
  if (s == 1.f) return;
  for (auto& p : line.box) p *= s;
  for (auto& p : line.polygon) p *= s;
  for (auto& w : line.words)
    for (auto& p : w.box) p *= s;
}

std::vector<OcrWord> line_words(const RecText& rec, const Quad& box, bool flipped) {
  std::vector<OcrWord> words;
  for (const WordSpan& span : split_words(rec))
    words.push_back({span.text, crop_span_to_image(box, span.x0, span.x1, flipped), span.score});
  return words;
}

RunParams run_params_of(const OcrParams& p) {
  RunParams s;
  s.det_resize = p.det.resize;
  s.det_post = p.det.post;
  s.use_angle_cls = p.use_angle_cls;
  s.drop_score = p.drop_score;
  return s;
}

OcrParams params_with(OcrParams p, const RunParams& s) {
  p.det.resize = s.det_resize;
  p.det.post = s.det_post;
  p.use_angle_cls = s.use_angle_cls;
  p.drop_score = s.drop_score;
  return p;
}

RunParams OcrPipeline::default_settings() const { return run_params_of(params_); }

OcrResult OcrPipeline::run(const cv::Mat& bgr, float coord_scale, bool keep_crops) {
  return static_cast<const OcrPipeline&>(*this).run(bgr, default_settings(), coord_scale, keep_crops);
}

OcrResult OcrPipeline::run(const cv::Mat& bgr, const RunParams& settings, float coord_scale,
                           bool keep_crops) const {
  if (settings.use_angle_cls && !cls_)
    throw Error("the direction classifier was asked for but not loaded (load it with --use_angle_cls true)");
  Stopwatch total;
  OcrResult result;
  result.image_size = cv::Size(static_cast<int>(bgr.cols * coord_scale), static_cast<int>(bgr.rows * coord_scale));

  Stopwatch sw;
  std::vector<TextBox> boxes = det_->detect(bgr, settings.det_resize, settings.det_post);
  sort_boxes(boxes);
  result.det_ms = sw.elapsed_ms();

  std::vector<cv::Mat> crops;
  crops.reserve(boxes.size());
  for (const auto& b : boxes) crops.push_back(rotate_crop(bgr, b.quad));

  std::vector<ClsResult> cls;
  if (settings.use_angle_cls && !crops.empty()) {
    sw.reset();
    cls = cls_->classify(crops);
    result.cls_ms = sw.elapsed_ms();
  }

  sw.reset();
  // PaddleOCR 3.x's width cap (rec_resize.h); the kept crops stay as cut.
  std::vector<cv::Mat> rec_inputs;
  rec_inputs.reserve(crops.size());
  for (const auto& c : crops) rec_inputs.push_back(cap_rec_width(c, params_.rec.image_h));
  std::vector<RecText> texts = crops.empty() ? std::vector<RecText>{} : rec_->recognize(rec_inputs);
  result.rec_ms = sw.elapsed_ms();

  for (size_t i = 0; i < boxes.size(); ++i) {
    OcrLine line;
    line.box = boxes[i].quad;
    line.polygon = boxes[i].polygon;
    line.det_score = boxes[i].score;
    line.text = texts[i].text;
    line.score = texts[i].score;
    if (!cls.empty()) {
      line.cls_label = cls[i].label;
      line.cls_score = cls[i].score;
    }
    if (params_.word_boxes) line.words = line_words(texts[i], line.box, !cls.empty() && cls[i].rotated);
    if (keep_crops) line.crop = crops[i];
    scale_line(line, coord_scale);
    result.detected.push_back(line);
    if (line.score >= settings.drop_score) result.lines.push_back(std::move(line));
  }
  result.total_ms = total.elapsed_ms();
  return result;
}

}  // namespace ocrforge
