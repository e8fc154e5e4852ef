// An OcrServer on a free loopback port for a test, serving on a thread of
// its own and stopped (drained) when the test ends.
#pragma once
#include <httplib.h>

#include <chrono>
#include <string>
#include <thread>

#include "ocrforge/serve/ocr_server.h"
#include "test_support.h"

namespace ocrforge::test {

inline OcrParams model_params(bool cls = false) {
  OcrParams p;
  p.det.model_dir = model_root() + "/det";
  p.rec.model_dir = model_root() + "/rec";
  p.cls.model_dir = model_root() + "/cls";
  p.rec.char_dict_path = model_root() + "/ppocr_keys_v1.txt";
  p.use_angle_cls = cls;
  p.runtime.cpu_threads = 1;  // tests run side by side on a small machine
  p.rec.workers = 1;
  return p;
}

inline ServeParams test_options() {
  ServeParams o;
  o.port = 0;
  o.access_log = "";
  return o;
}

class TestServer {
 public:
  // Loads the models first unless `load` is false.
  explicit TestServer(ServeParams options, bool load = true, bool cls = false) : server_(std::move(options)) {
    if (load) server_.load(model_params(cls));
    thread_ = std::thread([this] { server_.serve(); });
  }
  ~TestServer() {
    server_.stop();
    thread_.join();
  }
  OcrServer& server() { return server_; }
  int port() const { return server_.port(); }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", server_.port());
    c.set_read_timeout(std::chrono::seconds(120));
    c.set_write_timeout(std::chrono::seconds(60));
    return c;
  }

 private:
  OcrServer server_;
  std::thread thread_;
};

}  // namespace ocrforge::test
