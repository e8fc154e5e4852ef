// An error with the HTTP status it answers with (400 bad input, 401 no key,
// 413 too large, 422 invalid fields, 503 busy, ...). Each API writes it in
// its own envelope (ocr_server.cpp).
#pragma once
#include <string>

#include "ocrforge/core/error.h"

namespace ocrforge {

class HttpError : public Error {
 public:
  HttpError(int status, const std::string& message, int retry_after_s = 0)
      : Error(message), status_(status), retry_after_s_(retry_after_s) {}
  int status() const { return status_; }
  int retry_after_s() const { return retry_after_s_; }  // > 0: send Retry-After

 private:
  int status_;
  int retry_after_s_;
};

}  // namespace ocrforge
