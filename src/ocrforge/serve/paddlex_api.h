// PaddleOCR 3.x / PaddleX basic serving, OCR pipeline: POST /ocr.
//
// Request: {"file": <Base64 of an image or PDF, or a URL>, "fileType": 1 | 0 | null,
// "visualize", "useDocOrientationClassify", "useDocUnwarping",
// "useTextlineOrientation", "textDetLimitSideLen", "textDetLimitType",
// "textDetThresh", "textDetBoxThresh", "textDetUnclipRatio",
// "textRecScoreThresh"} (each optional but "file").
// Response: {"logId", "result": {"ocrResults": [{"prunedResult",
// "ocrImage"?, "inputImage"?}, ... one per page], "dataInfo"}, "errorCode":
// 0, "errorMsg": "Success"}; dataInfo is {"width", "height", "type":
// "image"} for an image, {"numPages", "pages": [{"width", "height"}, ...],
// "type": "pdf"} for a PDF (the pages read: at most --max_num_input_imgs,
// the first ones, as PaddleX). A multi-page TIFF (fileType 1; PaddleX reads
// only its first page) gives one entry per page too, and dataInfo
// {"width", "height", "type": "image", "numPages", "pages"}. Errors: {"logId", "errorCode": <HTTP
// status>, "errorMsg"}.
// Unlike PaddleX (which ignores them), unknown fields are refused (422) so a
// misspelt switch does not pass silently.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/serve/ocr_service.h"

namespace ocrforge {

// The OCR parameters a request may set (textDetLimitSideLen, ...), their
// ranges and where they go are entries of ocr_param_table()
// (infer/ocr_param_table.h): a request's textDetLimitSideLen is bounded
// more narrowly than the flag (with textDetLimitType "min" it is a floor a
// tiny image is enlarged to, so it bounds the detector input a request can
// make); a large image is bounded by the pixel budget and max_side_limit.

struct PaddlexRequest {
  std::string file;             // Base64 or URL, as sent
  bool file_is_url = false;
  bool is_pdf = false;          // fileType 0, or a URL ending in .pdf with fileType null
  std::optional<bool> visualize;
  RunParams settings;         // the server's, with the request's switches applied
};

// Parses and checks a /ocr body against `defaults` (the server's settings).
// Throws HttpError: 400 not JSON; 422 a missing, unknown or mistyped field or
// a value out of range, useDocOrientationClassify / useDocUnwarping true (no
// such models here), a file type that cannot be told.
PaddlexRequest parse_paddlex_request(const std::string& body, const RunParams& defaults);

// The success body: one ocrResults entry per page of `pages` (an image is
// one page), in order, with the ocrImage / inputImage a `finish` step left
// in them (Base64 JPEGs; "" leaves them out); dataInfo from `input` and the
// pages' sizes. `params`: the server's OCR parameters with this request's
// settings applied (they are echoed in prunedResult).
std::string paddlex_response(const std::string& log_id, const std::vector<ImageOutcome>& pages,
                             const InputPages& input, const OcrParams& params);

std::string paddlex_error(const std::string& log_id, int status, const std::string& message);


}  // namespace ocrforge
