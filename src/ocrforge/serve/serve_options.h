// What `ocrforge serve` is told besides the OCR parameters: where to listen,
// who may call, and the limits that keep one client from hurting others.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "ocrforge/core/flags.h"
#include "ocrforge/infer/image_reader.h"
#include "ocrforge/serve/api_keys.h"
#include "ocrforge/serve/guarded_server.h"

namespace ocrforge {

struct ServeParams {
  std::string host = "127.0.0.1";
  int port = 8080;  // PaddleX's default; 0: any free port
  ApiKeys keys;     // none: no key asked
  bool insecure = false;    // allow a non-loopback address without keys
  bool allow_urls = false;  // let PaddleX requests name a URL the server fetches
  size_t max_body_bytes = 20u << 20;
  int max_request_images = 10;  // PaddleHub's images[]
  // PaddleX /ocr documents (a PDF, a multi-page TIFF): the first N pages are
  // read, the rest dropped, as PaddleX's max_num_input_imgs (default 10;
  // 0: every page, bounded by --max_body_mb and --request_timeout).
  int max_num_input_imgs = 10;
  double pdf_dpi = 144;         // PDF pages are rendered at this (PaddleX: zoom 2.0 = 144 dpi)
  int64_t max_image_pixels = kDefaultMaxImagePixels;
  int max_side = 4000;          // JPEGs this much larger are decoded reduced (read_image)
  int max_concurrency = 1;      // OCR runs at once, sharing the models
  size_t queue_size = 16;       // requests waiting for a run; more are refused (503)
  std::chrono::milliseconds request_timeout{60000};  // queue wait + run
  int retry_after_s = 1;
  ConnectionLimits connection;
  int http_threads = 256;       // connections served at once (threads started as needed)
  bool visualize = true;        // PaddleX's Serving.visualize: ocrImage / inputImage by default
  std::string vis_font_path;
  std::string tls_cert, tls_key;  // both or neither: HTTPS
  std::string access_log = "-";   // "-": stdout, "": none, else a file appended to
  std::chrono::milliseconds url_timeout{10000};
  int metrics_port = -1;          // >= 0: /metrics also on this port (0: any), without keys
  std::string metrics_host = "127.0.0.1";
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_host(const std::string& host);

// Throws UsageError for contradictory or unsafe options: a non-loopback
// address without keys (unless insecure), half a TLS pair, limits < 1.
void check_serve_options(const ServeParams& options);

// The server's document flags (--max_num_input_imgs, --pdf_dpi), declared
// beside `ocrforge serve`'s others and read into `options` (UsageError naming
// the flag for a bad value).
void declare_serve_document_flags(FlagSet& flags);
void read_serve_document_flags(const FlagSet& flags, ServeParams& options);

}  // namespace ocrforge
