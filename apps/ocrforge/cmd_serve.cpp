// `ocrforge serve`: OCR over HTTP (src/ocrforge/serve). Takes `ocr`'s model
// and pipeline flags plus the server's own; binds first (so a busy port
// fails at once), loads the models while /health already answers, then
// serves until SIGTERM or SIGINT, which drain the requests in progress and
// exit 0.
#include <malloc.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "commands.h"
#include "ocrforge/infer/ocr_flags.h"
#include "ocrforge/core/error.h"
#include "ocrforge/serve/ocr_server.h"

namespace ocrforge {

static void declare_serve_flags(FlagSet& f) {
  f.add("host", "127.0.0.1", "address to listen on; one reachable from other machines needs --api_keys_file (or --insecure)");
  f.add("port", "8080", "TCP port (0: any free port, printed at start)");
  f.add("api_keys_file", "", "file of API keys, one per line: requests must send \"Authorization: Bearer <key>\" or \"X-API-Key: <key>\"");
  f.add_bool("insecure", false, "allow a non-loopback --host without API keys");
  f.add_bool("allow_urls", false, "let PaddleX /ocr requests give an http(s) URL for the server to fetch (it can reach what the server reaches)");
  f.add("max_body_mb", "20", "largest request body in MiB (413 above)");
  f.add("max_request_images", "10", "most images in one PaddleHub request");
  f.add("max_concurrency", "1", "OCR runs at once; they share the loaded models (each uses --cpu_threads ORT threads)");
  f.add("queue_size", "16", "requests that may wait for a run; more are refused at once with 503 and Retry-After");
  f.add("request_timeout", "60", "seconds a request may wait for and spend in OCR (503 if it never started, 504 if it ran too long)");
  f.add("retry_after", "1", "seconds sent in Retry-After with a 503");
  f.add("read_timeout", "5", "seconds a client may stay silent while sending a request");
  f.add("request_read_timeout", "30", "seconds a whole request (line, headers, body) may take to arrive (slow clients are cut off)");
  f.add("keep_alive_timeout", "5", "seconds an idle kept-alive connection stays open");
  f.add("http_threads", "256", "connections served at once: each holds a thread (started when needed) while a request is read or answered; more wait, their deadline counting");
  f.add("max_connections_per_client", "8", "connections one client address may hold at once (more get 429); 0: no cap (behind a reverse proxy, where every client is the proxy)");
  f.add("drain_timeout", "5", "seconds a request still arriving gets once SIGTERM stops the server (requests being processed finish)");
  f.add("tls_cert", "", "PEM certificate: serve HTTPS (with --tls_key)");
  f.add("tls_key", "", "PEM private key of --tls_cert");
  f.add("access_log", "-", "where one JSON line per request goes: - (standard output), a file, or '' (none)");
  f.add("metrics_port", "-1", "also serve /metrics on this port, without keys (for a scraper on a private address); -1: off");
  f.add("metrics_host", "127.0.0.1", "address of --metrics_port");
  f.add("url_timeout", "10", "seconds to fetch a URL given with --allow_urls");
  declare_serve_document_flags(f);  // --max_num_input_imgs, --pdf_dpi (serve_options.h)
}

// `ocr` flags that write files or time runs: meaningless for a server, so
// refused rather than silently ignored.
static const char* kOcrOnlyFlags[] = {"image_dir", "draw_img_save_dir", "save_crop_res", "crop_res_save_dir",
                                      "save_label", "benchmark", "warmup_runs"};

static ServeParams serve_options_from_flags(const FlagSet& f, const ImageReadParams& read) {
  for (const char* name : kOcrOnlyFlags)
    if (f.was_set(name))
      throw UsageError("--" + std::string(name) + " is an `ocrforge ocr` flag; the server reads images from requests "
                       "and writes no files");
  ServeParams o;
  o.host = f.get("host");
  o.port = f.get_int_at_least("port", 0);
  if (!f.get("api_keys_file").empty()) {
    o.keys = ApiKeys::load(f.get("api_keys_file"));
    for (const auto& w : o.keys.warnings()) std::cerr << "ocrforge serve: warning: " << w << "\n";
  }
  o.insecure = f.get_bool("insecure");
  o.allow_urls = f.get_bool("allow_urls");
  o.max_body_bytes = static_cast<size_t>(f.get_int_at_least("max_body_mb", 1)) << 20;
  o.max_request_images = f.get_int_at_least("max_request_images", 1);
  o.max_concurrency = f.get_int_at_least("max_concurrency", 1);
  o.queue_size = static_cast<size_t>(f.get_int_at_least("queue_size", 0));
  const auto ms = [&f](const char* name) {
    return std::chrono::milliseconds(static_cast<long>(f.get_double_above(name, 0) * 1000.0));
  };
  o.request_timeout = ms("request_timeout");
  o.retry_after_s = f.get_int_at_least("retry_after", 1);
  o.connection.read_timeout = ms("read_timeout");
  o.connection.request_read_timeout = ms("request_read_timeout");
  o.connection.keep_alive_timeout = ms("keep_alive_timeout");
  o.http_threads = f.get_int_at_least("http_threads", 1);
  o.connection.max_connections_per_client = static_cast<size_t>(f.get_int_at_least("max_connections_per_client", 0));
  o.connection.drain_timeout = ms("drain_timeout");
  o.tls_cert = f.get("tls_cert");
  o.tls_key = f.get("tls_key");
  o.access_log = f.get("access_log");
  o.metrics_port = f.get_int("metrics_port");
  o.metrics_host = f.get("metrics_host");
  o.url_timeout = ms("url_timeout");
  o.visualize = f.get_bool("visualize");
  o.vis_font_path = f.get("vis_font_path");
  o.max_image_pixels = read.max_pixels;
  o.max_side = read.max_side;
  read_serve_document_flags(f, o);
  return o;
}

// Request bodies, inflated uploads and decoded images (megabytes each) are
// allocated on many connection threads; with glibc's adaptive threshold they
// soon come from per-thread heaps that keep the memory after a free, and a
// burst of large or hostile requests leaves the server's RSS several times
// its working size. A fixed 1 MiB threshold maps such buffers on their own,
// returned to the system when freed. MALLOC_MMAP_THRESHOLD_ in the
// environment still wins.
static void return_large_buffers_to_the_system() {
  if (!std::getenv("MALLOC_MMAP_THRESHOLD_")) mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

int cmd_serve(const Args& args) {
  return_large_buffers_to_the_system();
  FlagSet flags("serve");
  declare_ocr_flags(flags);
  declare_serve_flags(flags);
  const std::vector<std::string> extra = flags.parse(args);
  if (flags.help_requested()) {
    std::cout << "ocrforge serve: OCR over HTTP. POST /ocr (PaddleOCR 3.x / PaddleX), POST /predict/ocr_system\n"
                 "(PaddleHub), POST /v1/ocr (raw image); GET / (web page), /health, /ready, /metrics. docs/serve.md\n\n"
              << flags.help_text();
    return 0;
  }
  if (!extra.empty())
    throw UsageError("unexpected argument '" + extra[0] + "' (flags are written --name=value or --name value)");
  const OcrParams params = ocr_params_from_flags(flags);
  const ServeParams options = serve_options_from_flags(flags, image_read_params_from_flags(flags));

  // SIGTERM / SIGINT are taken by one thread with sigwait(), blocked in
  // every other (the mask is inherited by the threads started below);
  // SIGPIPE from a client that went away must not end the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGUSR1);  // sent by this function to end the waiting thread
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  OcrServer server(options);
  std::fprintf(stderr, "ocrforge serve: listening on %s (API keys: %s%s; %d OCR run(s) at once, %zu may wait)\n",
               server.url().c_str(), options.keys.enabled() ? std::to_string(options.keys.size()).c_str() : "none",
               options.tls_cert.empty() ? "" : "; HTTPS", options.max_concurrency, options.queue_size);
  if (server.metrics_port() >= 0)
    std::fprintf(stderr, "ocrforge serve: /metrics also on http://%s:%d\n", options.metrics_host.c_str(),
                 server.metrics_port());

  std::atomic<int> stop_signal{0};
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    if (sig == SIGUSR1) return;
    stop_signal = sig;
    std::fprintf(stderr, "ocrforge serve: %s: no new connections; answering the requests in progress\n",
                 sig == SIGTERM ? "SIGTERM" : "SIGINT");
    server.stop();
  });
  std::thread listener([&] {
    if (!server.serve()) std::fprintf(stderr, "ocrforge serve: error: the listening socket failed\n");
  });
  int rc = 0;
  try {
    server.load(params);
    std::fprintf(stderr, "ocrforge serve: models loaded; ready\n");
  } catch (const Error& e) {
    std::fprintf(stderr, "ocrforge serve: error: %s\n", e.what());
    rc = 1;
    server.stop();
  }
  listener.join();
  if (!stop_signal) pthread_kill(waiter.native_handle(), SIGUSR1);
  waiter.join();
  if (stop_signal) std::fprintf(stderr, "ocrforge serve: stopped\n");
  return rc;
}

}  // namespace ocrforge
