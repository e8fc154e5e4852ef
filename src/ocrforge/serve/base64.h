// Base64 (RFC 4648, standard alphabet) for images in JSON bodies.
#pragma once
#include <optional>
#include <string>

namespace ocrforge {

std::string base64_encode(const std::string& bytes);

// Decodes like Python's base64.b64decode, which PaddleOCR's clients pair
// with: whitespace and line breaks are skipped, padding may be missing. A
// "data:...;base64," prefix (a browser's data URL) is accepted too. Returns
// nothing for other characters or an impossible length; `why` says which.
std::optional<std::string> base64_decode(const std::string& text, std::string* why = nullptr);

}  // namespace ocrforge
