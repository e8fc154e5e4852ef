// PaddleOCR 3.x / PaddleX basic serving, OCR pipeline: POST /ocr.
//
// Request: {"file": <Base64 of an image, or a URL>, "fileType": 1 | 0 | null,
// "visualize", "useDocOrientationClassify", "useDocUnwarping",
// "useTextlineOrientation", "textDetLimitSideLen", "textDetLimitType",
// "textDetThresh", "textDetBoxThresh", "textDetUnclipRatio",
// "textRecScoreThresh"} (each optional but "file").
// Response: {"logId", "result": {"ocrResults": [{"prunedResult",
// "ocrImage"?, "inputImage"?}], "dataInfo": {"width", "height", "type":
// "image"}}, "errorCode": 0, "errorMsg": "Success"}; errors:
// {"logId", "errorCode": <HTTP status>, "errorMsg"}.
// Unlike PaddleX (which ignores them), unknown fields are refused (422) so a
// misspelt switch does not pass silently.
#pragma once
#include <optional>
#include <string>

#include "ocrforge/infer/ocr_pipeline.h"
#include "ocrforge/serve/ocr_service.h"

namespace ocrforge {

// The range of a request's textDetLimitSideLen (the server's own
// --det_limit_side_len may be larger: a request that leaves the field out
// gets it). With textDetLimitType "min" the side is a floor a small image is
// enlarged to, so this bounds how much detector input (and memory) a request
// can make of a tiny image; a large one is bounded by the image pixel budget
// and the detector's max_side_limit. textDetUnclipRatio is bounded by
// kMaxUnclipRatio; the thresholds are in 0..1.
constexpr int kMinRequestSideLen = 32;
constexpr int kMaxRequestSideLen = 2048;

struct PaddlexRequest {
  std::string file;             // Base64 or URL, as sent
  bool file_is_url = false;
  std::optional<bool> visualize;
  RunParams settings;         // the server's, with the request's switches applied
};

// Parses and checks a /ocr body against `defaults` (the server's settings).
// Throws HttpError: 400 not JSON; 422 a missing, unknown or mistyped field or
// a value out of range, useDocOrientationClassify / useDocUnwarping true (no
// such models here), a file type that cannot be told; 415 fileType 0 (PDF,
// not yet supported).
PaddlexRequest parse_paddlex_request(const std::string& body, const RunParams& defaults);

// The success body for one image. `params`: the server's OCR parameters with
// this request's settings applied (they are echoed in prunedResult);
// `ocr_image` / `input_image`: Base64 JPEGs, "" to leave them out.
std::string paddlex_response(const std::string& log_id, const ImageOutcome& outcome, const OcrParams& params,
                             const std::string& ocr_image, const std::string& input_image);

std::string paddlex_error(const std::string& log_id, int status, const std::string& message);

// The OCR parameters a run with `settings` used, for result documents.
OcrParams params_with(OcrParams params, const RunParams& settings);

}  // namespace ocrforge
