// PaddleOCR's PaddleHub Serving module ocr_system (deploy/hubserving):
// POST /predict/ocr_system with {"images": [<Base64 of an image>, ...]}.
// Response (PaddleHub's envelope): {"msg": "", "results": [[{"confidence",
// "text", "text_region": [[x, y], ...]}, ...] per image], "status": "000"};
// errors: {"msg": <why>, "results": "", "status": "101"} ("111" for another
// module, "112" for a body that is not JSON), with the HTTP status as well.
// Images only, as PaddleHub's module (cv2.imdecode of each entry): the
// server refuses a PDF (415) and a TIFF of several pages (400), naming
// POST /ocr, which reads both page by page (PageRules::Accept::image).
#pragma once
#include <string>
#include <vector>

#include "ocrforge/serve/ocr_service.h"

namespace ocrforge {

// The images of a request, decoded from Base64 and named "images[i]".
// Throws HttpError: 400 not JSON or bad Base64; 422 no "images" list, an
// entry that is not a string, an unknown field, or more than `max_images`.
std::vector<ImageInput> parse_paddlehub_request(const std::string& body, int max_images);

std::string paddlehub_response(const std::vector<ImageOutcome>& outcomes);

// `status`: PaddleHub's code ("101" prediction error, "111" no such module,
// "112" not JSON).
std::string paddlehub_error(const std::string& status, const std::string& message);

}  // namespace ocrforge
