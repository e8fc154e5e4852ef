// The files `ocrforge ocr` writes, in PaddleOCR's formats.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ocrforge/infer/ocr_pipeline.h"

namespace ocrforge {

// PaddleOCR's JSON for one image's lines, as json.dumps(..., ensure_ascii=False):
// [{"transcription": "text", "points": [[x, y], ...]}, ...] with integer points.
// `difficult` adds "difficult": false to each entry (PPOCRLabel's Label.txt);
// `score` adds "score": the line's recognition score (what `ocrforge data
// select --uncertain` ranks by; PPOCRLabel ignores the key).
std::string lines_to_label_json(const std::vector<OcrLine>& lines, bool difficult = false, bool score = false);

// One line of system_results.txt: "<image file name>\t<lines json>".
std::string system_results_line(const std::string& image_path, const OcrResult& result);

// PaddleOCR 3.x style result document for <stem>_res.json: input_path,
// dt_polys, dt_scores, rec_texts, rec_scores, rec_polys, rec_boxes and the
// parameters used (text_det_params, text_rec_score_thresh, ...). For a page
// of a document, `page_index` (0-based, >= 0) follows input_path, as
// PaddleOCR 3.x's page_index.
std::string result_json(const std::string& image_path, const OcrResult& result, const OcrParams& params,
                        int page_index = -1);

// Detection label line for --save_label: the image path relative to the
// label file's folder (absolute when it is elsewhere), then the lines JSON
// (with "difficult" and "score").
std::string label_file_line(const std::string& image_path, const std::string& label_file,
                            const OcrResult& result);

// Integer points as PaddleOCR writes them (np.int32 truncation of the floats).
std::vector<std::array<int, 2>> int_points(const std::vector<cv::Point2f>& polygon);

// The visualisation `ocrforge ocr` writes (draw_ocr_box_txt): `result`'s
// lines drawn on `bgr`, the image it was read from at any scale (the boxes
// are scaled from result.image_size to it).
cv::Mat result_visualisation(const cv::Mat& bgr, const OcrResult& result, const std::string& font_path);

}  // namespace ocrforge
