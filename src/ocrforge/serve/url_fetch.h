// Fetches an image a PaddleX request names by URL (`--allow_urls` only: it
// makes the server request any address it can reach on a caller's behalf).
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace ocrforge {

// GET `url` (http:// or https://, redirects followed) and return the body.
// Throws HttpError: 400 a malformed URL, an unreachable host, a status other
// than 200 or a timeout; 413 a body over `max_bytes` (the transfer stops).
std::string fetch_url(const std::string& url, size_t max_bytes, std::chrono::milliseconds timeout);

}  // namespace ocrforge
