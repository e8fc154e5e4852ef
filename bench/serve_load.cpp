// A bounded loopback load client for `ocrforge serve`: at each concurrency
// C, C client threads (one kept-alive connection each) send a fixed number
// of requests in total, cycling through real images; it reports requests/s,
// latency percentiles, errors, and the server's RSS and peak RSS read from
// its /metrics. --soak N sends N requests at one concurrency and samples the
// server's RSS as it goes (growth after warm-up).
//
//   ocrforge_serve_load --url http://127.0.0.1:8080 --images tests/data/samples
//       --concurrency 1,2,4,16 --requests 60
//   ocrforge_serve_load --url ... --images ... --soak 5000 --concurrency 2
//
// One line per level starts with "LOAD " (key=value), one per soak sample
// with "SOAK ", for scripts (bench/serve_load.sh).
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "ocrforge/core/error.h"
#include "ocrforge/core/flags.h"
#include "ocrforge/core/image_files.h"
#include "ocrforge/core/text.h"

using namespace ocrforge;
using Clock = std::chrono::steady_clock;

namespace {

struct Target {
  std::string origin;  // http://host:port
  std::string route;   // /v1/ocr
  std::string key;
};

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error("cannot read " + path);
  std::string s;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

httplib::Client client_for(const Target& t) {
  httplib::Client c(t.origin);
  c.set_keep_alive(true);
  c.set_read_timeout(std::chrono::seconds(300));
  c.set_write_timeout(std::chrono::seconds(60));
  if (!t.key.empty()) c.set_bearer_token_auth(t.key.c_str());
  return c;
}

// A gauge of the server's /metrics, in MiB; -1 when absent.
double server_metric_mib(const Target& t, const std::string& name) {
  auto c = client_for(t);
  auto r = c.Get("/metrics");
  if (!r || r->status != 200) return -1;
  const std::regex re("\n" + name + " ([0-9.e+]+)\n");
  std::smatch m;
  if (!std::regex_search(r->body, m, re)) return -1;
  return std::stod(m[1]) / (1024.0 * 1024.0);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

struct LevelResult {
  double seconds = 0;
  std::vector<double> latency_ms;
  long errors = 0;
  std::string first_error;
};

// `total` requests from `concurrency` threads; request k sends image k mod n.
// `every` / `on_progress`: called after each `every` completed requests
// (the soak's RSS samples), from the thread that completed it.
LevelResult run_level(const Target& t, const std::vector<std::string>& images, int concurrency, long total,
                      long every = 0, const std::function<void(long)>& on_progress = nullptr) {
  LevelResult out;
  std::atomic<long> next{0}, done{0};
  std::mutex mutex;
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < concurrency; ++c)
    threads.emplace_back([&] {
      auto client = client_for(t);
      std::vector<double> mine;
      long errors = 0;
      std::string first_error;
      for (long k; (k = next.fetch_add(1)) < total;) {
        const std::string& body = images[static_cast<size_t>(k) % images.size()];
        const auto t0 = Clock::now();
        auto r = client.Post(t.route.c_str(), body, "application/octet-stream");
        mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (!r || r->status != 200) {
          ++errors;
          if (first_error.empty())
            first_error = r ? "HTTP " + std::to_string(r->status) + " " + r->body.substr(0, 200)
                            : "transport: " + httplib::to_string(r.error());
        }
        const long d = done.fetch_add(1) + 1;
        if (every > 0 && on_progress && d % every == 0) on_progress(d);
      }
      std::lock_guard<std::mutex> lock(mutex);
      out.latency_ms.insert(out.latency_ms.end(), mine.begin(), mine.end());
      out.errors += errors;
      if (out.first_error.empty()) out.first_error = first_error;
    });
  for (auto& th : threads) th.join();
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

void print_level(const char* tag, int concurrency, const LevelResult& r, double rss, double peak) {
  const double n = static_cast<double>(r.latency_ms.size());
  std::printf("%s concurrency=%d requests=%.0f seconds=%.2f req_per_s=%.3f p50_ms=%.0f p95_ms=%.0f p99_ms=%.0f "
              "errors=%ld server_rss_mib=%.0f server_peak_mib=%.0f\n",
              tag, concurrency, n, r.seconds, n / r.seconds, percentile(r.latency_ms, 50),
              percentile(r.latency_ms, 95), percentile(r.latency_ms, 99), r.errors, rss, peak);
  if (!r.first_error.empty()) std::printf("  first error: %s\n", r.first_error.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  FlagSet flags("serve_load");
  flags.add("url", "http://127.0.0.1:8080", "the server");
  flags.add("route", "/v1/ocr", "the route images are POSTed to (raw body)");
  flags.add("api_key", "", "sent as Authorization: Bearer");
  flags.add("images", "tests/data/samples", "image file or folder");
  flags.add("concurrency", "1,2,4,16", "client threads, one level per value");
  flags.add("requests", "0", "requests per level (0: 3 x the images)");
  flags.add("warmup", "1", "requests per client thread before each level, not counted");
  flags.add("soak", "0", "instead of the levels: this many requests at the first --concurrency, RSS sampled");
  flags.add("sample_every", "250", "soak: requests between RSS samples");
  try {
    flags.parse(std::vector<std::string>(argv + 1, argv + argc));
    if (flags.help_requested()) {
      std::printf("%s", flags.help_text().c_str());
      return 0;
    }
    Target t;
    t.origin = flags.get("url");
    t.route = flags.get("route");
    t.key = flags.get("api_key");
    std::vector<std::string> images;
    for (const auto& p : list_images(flags.get("images"))) images.push_back(read_file(p));
    if (images.empty()) throw Error("no images in " + flags.get("images"));
    std::vector<int> levels;
    for (const auto& s : split(flags.get("concurrency"), ',')) levels.push_back(std::stoi(s));
    const long requests = flags.get_int_at_least("requests", 0) > 0 ? flags.get_int("requests")
                                                                     : 3 * static_cast<long>(images.size());
    const int warmup = flags.get_int_at_least("warmup", 0);
    const long soak = flags.get_int_at_least("soak", 0);
    std::printf("images=%zu route=%s load_average_start=%s\n", images.size(), t.route.c_str(),
                trim(read_file("/proc/loadavg")).c_str());
    if (soak > 0) {
      const int c = levels.at(0);
      const long every = flags.get_int_at_least("sample_every", 1);
      run_level(t, images, c, static_cast<long>(c) * std::max(warmup, 1));
      std::mutex print;
      const auto sample = [&](long done) {
        const double rss = server_metric_mib(t, "process_resident_memory_bytes");
        std::lock_guard<std::mutex> lock(print);
        std::printf("SOAK requests=%ld server_rss_mib=%.1f\n", done, rss);
        std::fflush(stdout);
      };
      sample(0);
      const LevelResult r = run_level(t, images, c, soak, every, sample);
      print_level("LOAD", c, r, server_metric_mib(t, "process_resident_memory_bytes"),
                  server_metric_mib(t, "process_resident_memory_max_bytes"));
    } else {
      for (int c : levels) {
        if (warmup > 0) run_level(t, images, c, static_cast<long>(c) * warmup);
        const LevelResult r = run_level(t, images, c, requests);
        print_level("LOAD", c, r, server_metric_mib(t, "process_resident_memory_bytes"),
                    server_metric_mib(t, "process_resident_memory_max_bytes"));
      }
    }
    std::printf("load_average_end=%s\n", trim(read_file("/proc/loadavg")).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "serve_load: %s\n", e.what());
    return 1;
  }
  return 0;
}
