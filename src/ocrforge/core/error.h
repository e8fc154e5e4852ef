// The one exception type of ocrforge. Messages say what went wrong, which
// file / key / flag it concerns, and what to do. Library code throws;
// only main() turns errors into exit codes.
#pragma once
#include <stdexcept>
#include <string>

namespace ocrforge {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad command line or config: exit code 2 (like getopt tools) instead of 1.
class UsageError : public Error {
 public:
  using Error::Error;
};

// An image or page refused for its size (--max_image_pixels) by whichever
// decoder met it (image files, PDF pages, TIFF pages), so that callers can
// tell "too large" (HTTP 413) from "not an image" (400).
class ImageTooLargeError : public Error {
 public:
  using Error::Error;
};

}  // namespace ocrforge
