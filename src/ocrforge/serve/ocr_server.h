// `ocrforge serve`: OCR over HTTP with PaddleOCR's serving APIs.
//
//   POST /ocr                  PaddleOCR 3.x / PaddleX basic serving (paddlex_api.h)
//   POST /predict/ocr_system   PaddleHub Serving's ocr_system (paddlehub_api.h)
//   POST /v1/ocr               raw image body or multipart upload -> the
//                              system_results.txt JSON of that image
//   GET  /                     a web page: drop an image, see boxes and text
//   GET  /health /ready        liveness; readiness (models loaded, not draining)
//   GET  /metrics              Prometheus text format
//
// Models are loaded once (OcrService) and shared by every request thread.
// With API keys configured every route but /, /health and /ready needs one.
//
//   OcrServer server(options);           // binds; /health answers, /ready says 503
//   std::thread t([&] { server.serve(); });
//   server.load(params);                 // /ready says 200
//   ...
//   server.stop();                       // drains in-flight requests
//   t.join();
#pragma once
#include <atomic>
#include <memory>
#include <string>

#include "ocrforge/infer/params.h"
#include "ocrforge/serve/metrics.h"
#include "ocrforge/serve/serve_options.h"

namespace ocrforge {

class OcrServer {
 public:
  // Checks the options (UsageError), opens the access log and binds the
  // address (Error when it cannot: in use, not an address of this machine,
  // unreadable TLS files).
  explicit OcrServer(ServeParams options);
  ~OcrServer();
  OcrServer(const OcrServer&) = delete;
  OcrServer& operator=(const OcrServer&) = delete;

  int port() const { return port_; }
  int metrics_port() const;  // -1 without --metrics_port
  std::string url() const;   // "http://127.0.0.1:8080"

  // Loads the models; the OCR routes and /ready answer from then on.
  // Throws Error on a missing or unfit model.
  void load(const OcrParams& params);
  bool ready() const { return ready_ && !draining_; }

  // Serves on the calling thread until stop(); returns once the requests in
  // progress are answered. False when the listening socket failed.
  bool serve();
  // From any thread: /ready turns 503, no new connection is accepted, and
  // serve() returns after the requests in progress. The destructor stops
  // too; the thread running serve() must be joined before it runs.
  void stop();

  MetricsRegistry& metrics() { return metrics_; }
  const ServeParams& options() const { return options_; }

 private:
  struct Impl;
  ServeParams options_;
  MetricsRegistry metrics_;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::atomic<bool> ready_{false}, draining_{false}, serving_{false}, listening_ended_{false};
};

}  // namespace ocrforge
