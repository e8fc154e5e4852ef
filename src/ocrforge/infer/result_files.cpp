#include "ocrforge/infer/result_files.h"

#include <cstdio>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "ocrforge/core/image_files.h"
#include "ocrforge/vision/draw_ocr.h"
#include "ocrforge/vision/det_resize.h"

namespace fs = std::filesystem;

namespace ocrforge {

std::vector<std::array<int, 2>> int_points(const std::vector<cv::Point2f>& polygon) {
  std::vector<std::array<int, 2>> out;
  out.reserve(polygon.size());
  for (const auto& p : polygon) out.push_back({static_cast<int>(p.x), static_cast<int>(p.y)});
  return out;
}

// A JSON string without escaping non-ASCII (ensure_ascii=False).
static std::string json_string(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

static std::string points_json(const std::vector<cv::Point2f>& polygon) {
  std::string out = "[";
  bool first = true;
  for (const auto& p : int_points(polygon)) {
    out += (first ? "[" : ", [") + std::to_string(p[0]) + ", " + std::to_string(p[1]) + "]";
    first = false;
  }
  return out + "]";
}

std::string lines_to_label_json(const std::vector<OcrLine>& lines, bool difficult, bool score) {
  // Written by hand so the layout matches Python's json.dumps byte for byte
  // (", " and ": " separators, keys in PaddleOCR's order).
  std::string out = "[";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += ", ";
    out += "{\"transcription\": " + json_string(lines[i].text) + ", \"points\": " + points_json(lines[i].polygon);
    if (difficult) out += ", \"difficult\": false";
    if (score) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.6g", static_cast<double>(lines[i].score));
      out += std::string(", \"score\": ") + buf;
    }
    out += "}";
  }
  return out + "]";
}

std::string system_results_line(const std::string& image_path, const OcrResult& result) {
  return path_filename(image_path) + "\t" + lines_to_label_json(result.lines);
}

static nlohmann::ordered_json polys_json(const std::vector<OcrLine>& lines) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& l : lines) arr.push_back(int_points(l.polygon));
  return arr;
}

std::string result_json(const std::string& image_path, const OcrResult& result, const OcrParams& params,
                        int page_index) {
  using ojson = nlohmann::ordered_json;
  ojson res;
  res["input_path"] = image_path;
  if (page_index >= 0) res["page_index"] = page_index;
  res["image_size"] = {result.image_size.width, result.image_size.height};
  res["model_settings"] = {{"use_textline_orientation", params.use_angle_cls}};
  const auto& d = params.det;
  res["text_det_params"] = {
      {"limit_side_len", d.resize.limit_side_len},
      {"limit_type", d.resize.limit_type == DetLimitType::Max ? "max" : "min"},
      {"max_side_limit", d.resize.max_side_limit},
      {"thresh", d.post.thresh},
      {"box_thresh", d.post.box_thresh},
      {"unclip_ratio", d.post.unclip_ratio},
      {"use_dilation", d.post.use_dilation},
      {"score_mode", d.post.score_mode == DbScoreMode::Fast ? "fast" : "slow"},
      {"box_type", d.post.box_type == DetBoxType::Quad ? "quad" : "poly"}};
  res["text_type"] = "general";
  res["text_rec_score_thresh"] = params.drop_score;
  res["dt_polys"] = polys_json(result.detected);
  auto dt_scores = ojson::array();
  for (const auto& l : result.detected) dt_scores.push_back(l.det_score);
  res["dt_scores"] = dt_scores;
  auto angles = ojson::array();
  for (const auto& l : result.detected)
    angles.push_back(l.cls_label.empty() ? -1 : (l.cls_label.find("180") != std::string::npos ? 180 : 0));
  res["textline_orientation_angles"] = angles;
  auto texts = ojson::array(), scores = ojson::array(), boxes = ojson::array();
  for (const auto& l : result.lines) {
    texts.push_back(l.text);
    scores.push_back(l.score);
    auto pts = int_points(l.polygon);
    int x0 = pts[0][0], y0 = pts[0][1], x1 = x0, y1 = y0;
    for (const auto& p : pts) {
      x0 = std::min(x0, p[0]); y0 = std::min(y0, p[1]);
      x1 = std::max(x1, p[0]); y1 = std::max(y1, p[1]);
    }
    boxes.push_back({x0, y0, x1, y1});
  }
  res["rec_texts"] = texts;
  res["rec_scores"] = scores;
  res["rec_polys"] = polys_json(result.lines);
  res["rec_boxes"] = boxes;
  res["timing_ms"] = {{"det", result.det_ms}, {"cls", result.cls_ms}, {"rec", result.rec_ms}, {"total", result.total_ms}};
  return ojson{{"res", res}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string label_file_line(const std::string& image_path, const std::string& label_file,
                            const OcrResult& result) {
  std::error_code ec;
  fs::path dir = fs::absolute(label_file, ec).parent_path();
  fs::path img = fs::absolute(image_path, ec);
  fs::path rel = fs::relative(img, dir, ec);
  std::string shown = (ec || rel.empty() || *rel.begin() == "..") ? img.string() : rel.string();
  return shown + "\t" + lines_to_label_json(result.lines, true, true);
}

cv::Mat result_visualisation(const cv::Mat& bgr, const OcrResult& result, const std::string& font_path) {
  const float s = result.image_size.width > 0 ? static_cast<float>(bgr.cols) / result.image_size.width : 1.f;
  std::vector<Quad> boxes;
  std::vector<std::string> texts;
  for (const auto& l : result.lines) {
    Quad q = l.box;
    for (auto& p : q) p *= s;
    boxes.push_back(q);
    texts.push_back(l.text);
  }
  return draw_ocr_box_txt(bgr, boxes, texts, font_path);
}

}  // namespace ocrforge
