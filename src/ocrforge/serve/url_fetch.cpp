#include "ocrforge/serve/url_fetch.h"

#include <httplib.h>

#include "ocrforge/serve/http_error.h"

namespace ocrforge {

std::string fetch_url(const std::string& url, size_t max_bytes, std::chrono::milliseconds timeout) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) throw HttpError(400, "file URL '" + url + "' has no scheme (http:// or https://)");
  const size_t path_start = url.find('/', scheme_end + 3);
  const std::string origin = url.substr(0, path_start);
  const std::string path = path_start == std::string::npos ? "/" : url.substr(path_start);
  if (origin.size() <= scheme_end + 3) throw HttpError(400, "file URL '" + url + "' has no host");
  httplib::Client client(origin);
  if (!client.is_valid()) throw HttpError(400, "file URL '" + url + "' is not a URL this server can fetch");
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  client.set_follow_location(true);
  std::string body;
  bool too_large = false;
  auto res = client.Get(path, [&](const char* data, size_t n) {
    if (body.size() + n > max_bytes) {
      too_large = true;
      return false;
    }
    body.append(data, n);
    return true;
  });
  if (too_large)
    throw HttpError(413, "file URL '" + url + "' is larger than --max_body_mb allows (" + std::to_string(max_bytes) +
                             " bytes)");
  if (!res) throw HttpError(400, "file URL '" + url + "' could not be fetched: " + httplib::to_string(res.error()));
  if (res->status != 200)
    throw HttpError(400, "file URL '" + url + "' answered HTTP " + std::to_string(res->status) + ", not 200");
  return body;
}

}  // namespace ocrforge
