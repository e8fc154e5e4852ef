#include "ocrforge/serve/ocr_server.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <random>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "ocrforge/core/error.h"
#include "ocrforge/infer/result_files.h"
#include "ocrforge/serve/access_log.h"
#include "ocrforge/serve/base64.h"
#include "ocrforge/serve/guarded_server.h"
#include "ocrforge/serve/http_error.h"
#include "ocrforge/serve/metrics_endpoint.h"
#include "ocrforge/serve/ocr_service.h"
#include "ocrforge/serve/paddlehub_api.h"
#include "ocrforge/serve/paddlex_api.h"
#include "ocrforge/serve/url_fetch.h"
#include "ocrforge/serve/web_page.h"
#include "ocrforge/vision/draw_ocr.h"

namespace ocrforge {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

namespace {

enum class Api { Paddlex, Paddlehub, Plain };

// The routes, as metric labels (anything else is "other", so a scanner
// cannot grow the label set).
const char* route_of(const std::string& path) {
  for (const char* r : {"/", "/health", "/ready", "/metrics", "/ocr", "/predict/ocr_system", "/v1/ocr"})
    if (path == r) return r;
  if (path.rfind("/predict/", 0) == 0) return "/predict/other";
  return "other";
}

Api api_of(const std::string& path) {
  if (path == "/ocr") return Api::Paddlex;
  if (path.rfind("/predict/", 0) == 0) return Api::Paddlehub;
  return Api::Plain;
}

// The requests whose handlers read a body (through a content reader, under
// the body limit). Any other request that comes with one is refused before
// it is read: cpp-httplib would otherwise read it whole into req.body.
bool takes_body(const httplib::Request& req) {
  return req.method == "POST" && (req.path == "/ocr" || req.path == "/v1/ocr" || req.path.rfind("/predict/", 0) == 0);
}

bool has_body(const httplib::Request& req) {
  if (req.has_header("Transfer-Encoding")) return true;
  const std::string length = req.get_header_value("Content-Length");
  return !length.empty() && length != "0";
}

// Routes anyone may call: the page, liveness and readiness probes.
bool is_public(const httplib::Request& req) {
  return req.method == "GET" && (req.path == "/" || req.path == "/health" || req.path == "/ready");
}

// What the handlers learn about the request they serve, for the access log.
// A connection's requests run on its thread one after the other.
struct RequestContext {
  Clock::time_point start;  // request_start_time() of the request this is about
  std::string id;
  int images = 0, lines = 0;
  std::string error;
  bool counted_in_flight = false;
  size_t bytes_in = 0;  // the body, read by the handler
};
thread_local RequestContext t_ctx;

std::string new_request_id() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const uint64_t a = rng(), b = rng();
  char buf[40];
  // A version-4 UUID, as PaddleX's logId.
  std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3FFF)),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
  return buf;
}

// The context of the current request, fresh at its first use.
RequestContext& context() {
  if (t_ctx.start != request_start_time()) {
    t_ctx = RequestContext{};
    t_ctx.start = request_start_time();
    t_ctx.id = new_request_id();
  }
  return t_ctx;
}

std::string error_body(Api api, int status, const std::string& message, const std::string& id) {
  switch (api) {
    case Api::Paddlex: return paddlex_error(id, status, message);
    case Api::Paddlehub: return paddlehub_error("101", message);
    default:
      return json{{"error", message}, {"status", status}, {"id", id}}.dump(-1, ' ', false,
                                                                            json::error_handler_t::replace);
  }
}

void send_error(httplib::Response& res, Api api, int status, const std::string& message, int retry_after_s = 0,
                const std::string& hub_status = "101") {
  RequestContext& ctx = context();
  ctx.error = message;
  res.status = status;
  if (retry_after_s > 0) res.set_header("Retry-After", std::to_string(retry_after_s));
  const std::string body =
      api == Api::Paddlehub ? paddlehub_error(hub_status, message) : error_body(api, status, message, ctx.id);
  res.set_content(body, "application/json");
}

[[noreturn]] void throw_body_too_large(size_t max_bytes) {
  close_connection_after_response();  // the rest of the body is not read
  throw HttpError(413, "the request body is over this server's limit of " + std::to_string(max_bytes) +
                           " bytes (counted after any Content-Encoding is undone; --max_body_mb)");
}

[[noreturn]] void throw_read_failure(const httplib::Response& res) {
  if (res.status == 413) throw HttpError(413, "the request body is over the server's limit (--max_body_mb)");
  throw HttpError(400, "the request body could not be read (cut short, or malformed chunked / multipart encoding)");
}

// A Base64 JPEG of `img` no larger than 2000 x 2000 (PaddleX's
// max_output_img_size), quality 95 (OpenCV's default, as PaddleX's).
std::string jpeg_base64(const cv::Mat& img) {
  cv::Mat out = img;
  const double f = std::min(1.0, 2000.0 / std::max(img.cols, img.rows));
  if (f < 1.0) cv::resize(img, out, cv::Size(), f, f, cv::INTER_AREA);
  std::vector<uchar> buf;
  cv::imencode(".jpg", out, buf);
  return base64_encode(std::string(buf.begin(), buf.end()));
}

// The body as sent, read through a content reader rather than into
// req.body: that path refuses any body over 8 KiB sent as
// application/x-www-form-urlencoded, which is what `curl --data-binary`
// sends unless told otherwise. The limit counts the bytes as they arrive
// after cpp-httplib has undone any Content-Encoding (a 1 MB gzip body may
// inflate to 1 GB) and whatever the framing (a chunked body has no
// Content-Length to refuse up front): the read stops at the first byte over
// it. When cpp-httplib itself stops the read, res.status says why.
std::string read_body(const httplib::ContentReader& reader, const httplib::Response& res, size_t max_bytes) {
  std::string body;
  bool over = false;
  const bool ok = reader([&](const char* data, size_t n) {
    if (n > max_bytes - body.size()) return !(over = true);
    body.append(data, n);
    return true;
  });
  if (over) throw_body_too_large(max_bytes);
  if (!ok) throw_read_failure(res);
  return body;
}

// The parts of a multipart/form-data body, under the same limit (all parts
// together, decoded).
std::vector<httplib::MultipartFormData> read_parts(const httplib::ContentReader& reader,
                                                   const httplib::Response& res, size_t max_bytes) {
  std::vector<httplib::MultipartFormData> parts;
  size_t total = 0;
  bool over = false;
  const bool ok = reader(
      [&parts](const httplib::MultipartFormData& part) {
        parts.push_back(part);
        return true;
      },
      [&](const char* data, size_t n) {
        if (n > max_bytes - total) return !(over = true);
        total += n;
        parts.back().content.append(data, n);
        return true;
      });
  if (over) throw_body_too_large(max_bytes);
  if (!ok) throw_read_failure(res);
  return parts;
}

// Latency buckets in seconds: a text line on an idle machine to a queue wait.
const std::vector<double> kLatencyBuckets = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

}  // namespace

struct OcrServer::Impl {
  std::unique_ptr<httplib::Server> http;
  std::unique_ptr<AccessLog> log;
  std::unique_ptr<OcrService> service;
  std::unique_ptr<MetricsEndpoint> metrics_endpoint;
};

OcrServer::OcrServer(ServeParams options) : options_(std::move(options)), impl_(std::make_unique<Impl>()) {
  check_serve_options(options_);
  metrics_.add_counter("ocrforge_http_requests_total", "HTTP requests answered, by route and status code.");
  metrics_.add_histogram("ocrforge_http_request_duration_seconds",
                         "Time from a request's first byte to its response, by route.", kLatencyBuckets);
  metrics_.add_gauge("ocrforge_http_requests_in_flight", "Requests being handled now.");
  metrics_.set("ocrforge_http_requests_in_flight", {}, 0);
  metrics_.add_callback_gauge("ocrforge_ready", "1 when the models are loaded and the server is not draining.",
                              [this] { return ready() ? 1.0 : 0.0; });
  add_process_metrics(metrics_);
  impl_->log = std::make_unique<AccessLog>(options_.access_log);

  if (options_.tls_cert.empty()) {
    impl_->http = std::make_unique<GuardedHttpServer>(options_.connection);
  } else {
    auto https = std::make_unique<GuardedHttpsServer>(options_.connection, options_.tls_cert.c_str(),
                                                      options_.tls_key.c_str());
    if (!https->is_valid())
      throw Error("cannot set up HTTPS with --tls_cert '" + options_.tls_cert + "' and --tls_key '" +
                  options_.tls_key + "': unreadable files, not PEM, or a key that does not match the certificate");
    impl_->http = std::move(https);
  }
  httplib::Server& s = *impl_->http;
  const int threads = options_.http_threads;
  s.new_task_queue = [threads] { return new ConnectionThreads(static_cast<size_t>(threads)); };
  s.set_payload_max_length(options_.max_body_bytes);

  // Key and size checks before any body is read (also answering
  // "Expect: 100-continue", so curl does not even send a refused body).
  const auto admit = [this](const httplib::Request& req, httplib::Response& res) -> int {
    RequestContext& ctx = context();
    res.set_header("X-Request-Id", ctx.id);
    if (!ctx.counted_in_flight) {
      ctx.counted_in_flight = true;
      metrics_.add("ocrforge_http_requests_in_flight", {}, 1);
    }
    const Api api = api_of(req.path);
    if (options_.keys.enabled() && !is_public(req)) {
      const std::string key = presented_key(req.get_header_value("Authorization"), req.get_header_value("X-API-Key"));
      if (!options_.keys.accepts(key)) {
        res.set_header("WWW-Authenticate", "Bearer");
        send_error(res, api, 401,
                   key.empty() ? "an API key is required: send \"Authorization: Bearer <key>\" or \"X-API-Key: <key>\""
                               : "the API key is not valid");
        close_connection_after_response();
        return 401;
      }
    }
    if (has_body(req) && !takes_body(req)) {
      send_error(res, api, 413, req.method + " " + req.path + " takes no request body");
      close_connection_after_response();
      return 413;
    }
    const std::string length = req.get_header_value("Content-Length");
    if (!length.empty()) {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(length.c_str(), &end, 10);
      if (end == length.c_str() || *end != '\0' || n > options_.max_body_bytes) {
        send_error(res, api, 413,
                   "the request body is " + length + " bytes; this server takes at most " +
                       std::to_string(options_.max_body_bytes) + " (--max_body_mb)");
        close_connection_after_response();
        return 413;
      }
    }
    return 0;
  };
  s.set_expect_100_continue_handler([admit](const httplib::Request& req, httplib::Response& res) {
    const int status = admit(req, res);
    return status == 0 ? 100 : status;
  });
  s.set_pre_routing_handler([admit](const httplib::Request& req, httplib::Response& res) {
    return admit(req, res) == 0 ? httplib::Server::HandlerResponse::Unhandled : httplib::Server::HandlerResponse::Handled;
  });

  // Every answer of 400 and above that has no body yet gets the route's JSON
  // envelope (cpp-httplib's own 400 / 404 / 413 / 414 included).
  s.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const Api api = api_of(req.path);
    std::string why = "HTTP " + std::to_string(res.status);
    if (res.status == 404)
      why = "no route " + req.method + " " + req.path +
            " (POST /ocr, POST /predict/ocr_system, POST /v1/ocr, GET /, /health, /ready, /metrics)";
    else if (res.status == 413)
      why = "the request body is over the server's limit (--max_body_mb)";
    else if (res.status == 400)
      why = "malformed HTTP request";
    send_error(res, api, res.status, why, 0, api == Api::Paddlehub && res.status == 404 ? "111" : "101");
    return httplib::Server::HandlerResponse::Handled;
  }));
  s.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string why = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      why += std::string(": ") + e.what();
    } catch (...) {
    }
    send_error(res, api_of(req.path), 500, why);
  });

  s.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
    RequestContext& ctx = context();
    const double seconds = std::chrono::duration<double>(Clock::now() - request_start_time()).count();
    const std::string route = route_of(req.path);
    metrics_.inc("ocrforge_http_requests_total", {{"route", route}, {"status", std::to_string(res.status)}});
    metrics_.observe("ocrforge_http_request_duration_seconds", {{"route", route}}, seconds);
    if (ctx.counted_in_flight) {
      ctx.counted_in_flight = false;
      metrics_.add("ocrforge_http_requests_in_flight", {}, -1);
    }
    AccessLogEntry e;
    e.id = ctx.id;
    e.remote = req.remote_addr;
    e.method = req.method;
    e.path = req.path;
    e.status = res.status;
    e.ms = seconds * 1000.0;
    e.bytes_in = std::max(req.body.size(), ctx.bytes_in);
    e.bytes_out = res.body.size();
    e.images = ctx.images;
    e.lines = ctx.lines;
    e.error = ctx.error;
    impl_->log->write(e);
  });

  // ---- routes
  s.Get("/", [](const httplib::Request&, httplib::Response& res) {
    // The page needs nothing from elsewhere: say so to the browser.
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                   "img-src blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_content(web_page_html(), "text/html; charset=utf-8");
  });
  s.Get("/health", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(json{{"logId", context().id}, {"errorCode", 0}, {"errorMsg", "Healthy"}}.dump(), "application/json");
  });
  s.Get("/ready", [this](const httplib::Request&, httplib::Response& res) {
    if (ready()) {
      res.set_content(R"({"ready":true})", "application/json");
      return;
    }
    res.status = 503;
    res.set_content(json{{"ready", false}, {"reason", draining_ ? "draining" : "loading models"}}.dump(),
                    "application/json");
  });
  s.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_.exposition(), kPrometheusContentType);
  });

  // The service, or 503 while the models load or the server drains.
  const auto service = [this]() -> OcrService& {
    if (!ready_) throw HttpError(503, "the models are still loading; retry in a moment", options_.retry_after_s);
    return *impl_->service;
  };
  const auto deadline = [this] { return Clock::now() + options_.request_timeout; };

  s.Post("/ocr", [this, service, deadline](const httplib::Request&, httplib::Response& res,
                                           const httplib::ContentReader& reader) {
    RequestContext& ctx = context();
    try {
      const std::string body = read_body(reader, res, options_.max_body_bytes);
      ctx.bytes_in = body.size();
      OcrService& svc = service();
      PaddlexRequest pr = parse_paddlex_request(body, svc.pipeline().default_settings());
      if (pr.settings.use_angle_cls && !svc.params().use_angle_cls)
        throw HttpError(422, "useTextlineOrientation needs the direction classifier: start the server with "
                             "--use_angle_cls true");
      std::string bytes;
      if (pr.file_is_url) {
        if (!options_.allow_urls)
          throw HttpError(403, "file is a URL, and this server does not fetch URLs (start it with --allow_urls); "
                               "send the image's Base64 instead");
        bytes = fetch_url(pr.file, options_.max_body_bytes, options_.url_timeout);
      } else {
        std::string why;
        auto decoded = base64_decode(pr.file, &why);
        if (!decoded) throw HttpError(400, "file is neither an http(s) URL nor valid Base64: " + why);
        bytes = std::move(*decoded);
      }
      pr.file.clear();
      const bool visualize = pr.visualize.value_or(options_.visualize);
      std::function<void(ImageOutcome&)> draw;
      if (visualize) {
        const std::string font = options_.vis_font_path;
        draw = [font](ImageOutcome& o) {
          const float inv = 1.f / o.image.scale;  // result coordinates are file pixels
          std::vector<Quad> boxes;
          std::vector<std::string> texts;
          for (const auto& l : o.result.lines) {
            Quad q = l.box;
            for (auto& p : q) p *= inv;
            boxes.push_back(q);
            texts.push_back(l.text);
          }
          o.ocr_image = jpeg_base64(draw_ocr_box_txt(o.image.bgr, boxes, texts, font));
          o.input_image = jpeg_base64(o.image.bgr);
        };
      }
      PageRules rules;
      rules.accept = pr.is_pdf ? PageRules::Accept::pdf : PageRules::Accept::image_pages;
      rules.max_pages = options_.max_num_input_imgs;
      const ReadResult read = svc.read({{std::move(bytes), "file"}}, pr.settings, rules, false, deadline(), draw);
      ctx.images = static_cast<int>(read.pages.size());
      for (const auto& p : read.pages) ctx.lines += static_cast<int>(p.result.lines.size());
      if (read.inputs[0].more_pages)
        res.set_header("X-Ocrforge-Pages-Dropped",
                       "the document has more than " + std::to_string(read.pages.size()) +
                           " pages; the first " + std::to_string(read.pages.size()) + " were read (--max_num_input_imgs)");
      res.set_content(paddlex_response(ctx.id, read.pages, read.inputs[0], params_with(svc.params(), pr.settings)),
                      "application/json");
    } catch (const HttpError& e) {
      send_error(res, Api::Paddlex, e.status(), e.what(), e.retry_after_s());
    }
  });

  s.Post("/predict/ocr_system", [this, service, deadline](const httplib::Request&, httplib::Response& res,
                                                          const httplib::ContentReader& reader) {
    RequestContext& ctx = context();
    try {
      const std::string body = read_body(reader, res, options_.max_body_bytes);
      ctx.bytes_in = body.size();
      OcrService& svc = service();
      auto inputs = parse_paddlehub_request(body, options_.max_request_images);
      ctx.images = static_cast<int>(inputs.size());
      // Images only, as PaddleHub's ocr_system (cv2.imdecode of each entry):
      // a PDF is refused, and so is a TIFF of several pages (PaddleHub would
      // read its first page only), naming POST /ocr, which reads both.
      const ReadResult read =
          svc.read(std::move(inputs), svc.pipeline().default_settings(), PageRules{}, false, deadline());
      for (const auto& o : read.pages) ctx.lines += static_cast<int>(o.result.lines.size());
      res.set_content(paddlehub_response(read.pages), "application/json");
    } catch (const HttpError& e) {
      send_error(res, Api::Paddlehub, e.status(), e.what(), e.retry_after_s());
    }
  });
  // Answered without reading the body (a content-reader handler that never
  // calls its reader), so the connection closes after the answer.
  s.Post(R"(/predict/([^/]+))",
         [](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader&) {
           close_connection_after_response();
           send_error(res, Api::Paddlehub, 404,
                      "Module " + req.matches[1].str() + " is not available (this server has ocr_system)", 0, "111");
         });

  s.Post("/v1/ocr", [this, service, deadline](const httplib::Request& req, httplib::Response& res,
                                        const httplib::ContentReader& reader) {
    RequestContext& ctx = context();
    try {
      std::string bytes, name = "request body";
      if (req.is_multipart_form_data()) {
        std::vector<httplib::MultipartFormData> parts = read_parts(reader, res, options_.max_body_bytes);
        for (auto& p : parts) ctx.bytes_in += p.content.size();
        // The field named file (or image), else the first that is a file.
        auto pick = parts.end();
        for (auto it = parts.begin(); it != parts.end(); ++it)
          if (it->name == "file" || it->name == "image" || (pick == parts.end() && !it->filename.empty())) pick = it;
        if (pick != parts.end()) {
          bytes = std::move(pick->content);
          name = "form field '" + pick->name + "'" + (pick->filename.empty() ? "" : " (" + pick->filename + ")");
        }
      } else {
        bytes = read_body(reader, res, options_.max_body_bytes);
        ctx.bytes_in = bytes.size();
      }
      OcrService& svc = service();
      if (bytes.empty())
        throw HttpError(400, req.is_multipart_form_data()
                                 ? "the multipart form holds no file; send the image in a field named 'file'"
                                 : "no image: send the image file as the request body (or a multipart field 'file')");
      const ReadResult read =
          svc.read({{std::move(bytes), name}}, svc.pipeline().default_settings(), PageRules{}, false, deadline());
      ctx.images = 1;
      ctx.lines = static_cast<int>(read.pages[0].result.lines.size());
      res.set_content(lines_to_label_json(read.pages[0].result.lines), "application/json");
    } catch (const HttpError& e) {
      send_error(res, Api::Plain, e.status(), e.what(), e.retry_after_s());
    }
  });

  // ---- bind
  if (options_.port == 0) {
    port_ = s.bind_to_any_port(options_.host);
    if (port_ <= 0) throw Error("cannot listen on " + options_.host + " (not an address of this machine?)");
  } else {
    if (!s.bind_to_port(options_.host, options_.port))
      throw Error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                  " (the port is in use, or the address is not one of this machine's); choose another --port");
    port_ = options_.port;
  }
  if (options_.metrics_port >= 0)
    impl_->metrics_endpoint = std::make_unique<MetricsEndpoint>(metrics_, options_.metrics_host, options_.metrics_port);
}

OcrServer::~OcrServer() {
  stop();
}

int OcrServer::metrics_port() const { return impl_->metrics_endpoint ? impl_->metrics_endpoint->port() : -1; }

std::string OcrServer::url() const {
  const bool v6 = options_.host.find(':') != std::string::npos;
  return std::string(options_.tls_cert.empty() ? "http" : "https") + "://" + (v6 ? "[" : "") + options_.host +
         (v6 ? "]" : "") + ":" + std::to_string(port_);
}

void OcrServer::load(const OcrParams& params) {
  impl_->service = std::make_unique<OcrService>(params, options_, metrics_);
  ready_ = true;
}

bool OcrServer::serve() {
  // With stop(): whichever of the two flags is set second sees the other,
  // so a stop() before or during the start of serve() is never lost.
  serving_ = true;
  bool ok = true;
  if (!draining_) ok = impl_->http->listen_after_bind();
  listening_ended_ = true;
  return ok || draining_;
}

void OcrServer::stop() {
  if (draining_.exchange(true)) return;
  if (serving_) stop_listening(*impl_->http, listening_ended_);
}

}  // namespace ocrforge
