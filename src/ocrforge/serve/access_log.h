// One JSON object per line for each request `ocrforge serve` answers:
//   {"time":"2025-01-02T03:04:05.678Z","id":"…","remote":"127.0.0.1","method":"POST",
//    "path":"/ocr","status":200,"ms":412.5,"bytes_in":53211,"bytes_out":2210,
//    "images":1,"lines":14,"error":""}
// Thread-safe; each line is written and flushed whole.
#pragma once
#include <cstdio>
#include <mutex>
#include <string>

namespace ocrforge {

struct AccessLogEntry {
  std::string id, remote, method, path, error;
  int status = 0;
  double ms = 0;
  size_t bytes_in = 0, bytes_out = 0;
  int images = 0, lines = 0;
};

class AccessLog {
 public:
  // `target`: "-" standard output, "" nothing, else a file appended to
  // (throws Error when it cannot be opened).
  explicit AccessLog(const std::string& target);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void write(const AccessLogEntry& e);
  static std::string format(const AccessLogEntry& e);  // the line, without its newline

 private:
  std::mutex mutex_;
  std::FILE* out_ = nullptr;
  bool owned_ = false;
};

}  // namespace ocrforge
