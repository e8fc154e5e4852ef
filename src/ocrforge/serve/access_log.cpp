#include "ocrforge/serve/access_log.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include <nlohmann/json.hpp>

#include "ocrforge/core/error.h"

namespace ocrforge {

AccessLog::AccessLog(const std::string& target) {
  if (target.empty()) return;
  if (target == "-") {
    out_ = stdout;
    return;
  }
  out_ = std::fopen(target.c_str(), "a");
  if (!out_) throw Error("--access_log '" + target + "' cannot be opened: " + std::strerror(errno));
  owned_ = true;
}

AccessLog::~AccessLog() {
  if (owned_) std::fclose(out_);
}

static std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const long ms = static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

std::string AccessLog::format(const AccessLogEntry& e) {
  nlohmann::ordered_json j;
  j["time"] = utc_now();
  j["id"] = e.id;
  j["remote"] = e.remote;
  j["method"] = e.method;
  j["path"] = e.path;
  j["status"] = e.status;
  j["ms"] = static_cast<double>(static_cast<long>(e.ms * 10)) / 10;
  j["bytes_in"] = e.bytes_in;
  j["bytes_out"] = e.bytes_out;
  j["images"] = e.images;
  j["lines"] = e.lines;
  j["error"] = e.error;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void AccessLog::write(const AccessLogEntry& e) {
  if (!out_) return;
  const std::string line = format(e) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace ocrforge
