#include "ocrforge/serve/serve_options.h"

#include <arpa/inet.h>

#include "ocrforge/core/error.h"

namespace ocrforge {

bool is_loopback_host(const std::string& host) {
  if (host == "localhost") return true;
  // inet_aton, not inet_pton: the listener resolves "127.1" and "0x7f.1"
  // to 127.0.0.1 as inet_aton does, so they are loopback too.
  in_addr v4{};
  if (inet_aton(host.c_str(), &v4) != 0) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1)
    return IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127);
  return false;
}

void check_serve_options(const ServeParams& o) {
  if (!is_loopback_host(o.host) && !o.keys.enabled() && !o.insecure)
    throw UsageError("--host " + o.host + " is not a loopback address (127.0.0.0/8, ::1, localhost), so other "
                     "machines may reach it, and no --api_keys_file is set: anyone could use this server. Give keys (--api_keys_file), or pass --insecure to serve without them");
  if (o.tls_cert.empty() != o.tls_key.empty())
    throw UsageError("HTTPS needs both --tls_cert and --tls_key (PEM files)");
  if (o.port < 0 || o.port > 65535) throw UsageError("--port must be 0..65535, got " + std::to_string(o.port));
  if (o.metrics_port > 65535) throw UsageError("--metrics_port must be <= 65535");
  if (o.max_concurrency < 1) throw UsageError("--max_concurrency must be >= 1");
  if (o.http_threads < 1) throw UsageError("--http_threads must be >= 1");
  if (o.max_request_images < 1) throw UsageError("--max_request_images must be >= 1");
  if (o.max_num_input_imgs < 0) throw UsageError("--max_num_input_imgs must be >= 0 (0: every page)");
  if (!(o.pdf_dpi == 0 || (o.pdf_dpi >= 10 && o.pdf_dpi <= 2400)))
    throw UsageError("--pdf_dpi must be 0 (each page's scan resolution) or in [10, 2400]");
  if (o.max_body_bytes < 1024) throw UsageError("--max_body_mb is too small to hold an image");
  if (o.request_timeout.count() <= 0) throw UsageError("--request_timeout must be > 0");
  if (o.connection.read_timeout.count() <= 0 || o.connection.request_read_timeout.count() <= 0)
    throw UsageError("--read_timeout and --request_read_timeout must be > 0");
}

void declare_serve_document_flags(FlagSet& f) {
  f.add("max_num_input_imgs", "10",
        "PaddleX /ocr: pages read of a PDF or multi-page TIFF; the first N are read and the rest dropped, as "
        "PaddleX's max_num_input_imgs (0: every page)");
  f.add("pdf_dpi", "144",
        "resolution PDF pages are rendered at (144: PaddleX's zoom 2.0; 0: a scanned page's own resolution)");
}

void read_serve_document_flags(const FlagSet& f, ServeParams& o) {
  o.max_num_input_imgs = f.get_int_at_least("max_num_input_imgs", 0);
  o.pdf_dpi = f.get_double("pdf_dpi");
  if (!(o.pdf_dpi == 0 || (o.pdf_dpi >= 10 && o.pdf_dpi <= 2400)))
    throw UsageError("--pdf_dpi must be 0 (each page's scan resolution) or in [10, 2400], got " + f.get("pdf_dpi"));
}

}  // namespace ocrforge
