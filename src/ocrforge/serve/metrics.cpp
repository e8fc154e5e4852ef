#include "ocrforge/serve/metrics.h"

#include <charconv>
#include <cmath>

#include "ocrforge/core/error.h"
#include "ocrforge/core/process_info.h"

namespace ocrforge {

static bool valid_name(const std::string& s, bool colon) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':') ||
                    (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

std::string format_metric_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

// Label values escape backslash, double quote and newline; help text
// backslash and newline (the exposition format's rules).
static std::string escape(const std::string& s, bool quote) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quote) out += "\\\"";
    else out += c;
  }
  return out;
}

static std::string render_labels(const MetricLabels& labels) {
  std::string out;
  for (const auto& [k, v] : labels) {
    if (!valid_name(k, false) || k.rfind("__", 0) == 0)
      throw Error("metric label name '" + k + "' is invalid (use [a-zA-Z_][a-zA-Z0-9_]*, not starting with __)");
    out += (out.empty() ? "" : ",") + k + "=\"" + escape(v, true) + "\"";
  }
  return out;
}

void MetricsRegistry::declare(const std::string& name, const std::string& help, Kind kind, std::vector<double> bounds,
                              std::function<double()> read) {
  if (!valid_name(name, true)) throw Error("metric name '" + name + "' is invalid (use [a-zA-Z_:][a-zA-Z0-9_:]*)");
  for (size_t i = 1; i < bounds.size(); ++i)
    if (!(bounds[i] > bounds[i - 1])) throw Error("histogram '" + name + "': bucket bounds must increase");
  std::lock_guard<std::mutex> lock(mutex_);
  if (by_name_.count(name)) throw Error("metric '" + name + "' is declared twice");
  auto f = std::make_unique<Family>();
  f->name = name;
  f->help = help;
  f->kind = kind;
  f->bounds = std::move(bounds);
  f->read = std::move(read);
  by_name_[name] = f.get();
  families_.push_back(std::move(f));
}

void MetricsRegistry::add_counter(const std::string& name, const std::string& help) {
  declare(name, help, Kind::Counter, {}, nullptr);
}
void MetricsRegistry::add_gauge(const std::string& name, const std::string& help) {
  declare(name, help, Kind::Gauge, {}, nullptr);
}
void MetricsRegistry::add_histogram(const std::string& name, const std::string& help, std::vector<double> bounds) {
  if (bounds.empty()) throw Error("histogram '" + name + "' needs at least one bucket bound");
  declare(name, help, Kind::Histogram, std::move(bounds), nullptr);
}
void MetricsRegistry::add_callback_gauge(const std::string& name, const std::string& help, std::function<double()> read) {
  if (!read) throw Error("callback gauge '" + name + "' needs a function");
  declare(name, help, Kind::CallbackGauge, {}, std::move(read));
}

// Called with mutex_ held.
MetricsRegistry::Series& MetricsRegistry::series(const std::string& name, const MetricLabels& labels, Kind kind) {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) throw Error("metric '" + name + "' was not declared");
  Family& f = *it->second;
  if (f.kind != kind) throw Error("metric '" + name + "' is not a " +
                                  (kind == Kind::Counter ? "counter" : kind == Kind::Gauge ? "gauge" : "histogram"));
  Series& s = f.series[render_labels(labels)];
  if (kind == Kind::Histogram && s.buckets.empty()) s.buckets.assign(f.bounds.size() + 1, 0);
  return s;
}

void MetricsRegistry::inc(const std::string& counter, const MetricLabels& labels, double by) {
  if (!(by >= 0)) throw Error("counter '" + counter + "' can only go up (got " + format_metric_value(by) + ")");
  std::lock_guard<std::mutex> lock(mutex_);
  series(counter, labels, Kind::Counter).value += by;
}

void MetricsRegistry::set(const std::string& gauge, const MetricLabels& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  series(gauge, labels, Kind::Gauge).value = value;
}

void MetricsRegistry::add(const std::string& gauge, const MetricLabels& labels, double delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  series(gauge, labels, Kind::Gauge).value += delta;
}

void MetricsRegistry::observe(const std::string& histogram, const MetricLabels& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Series& s = series(histogram, labels, Kind::Histogram);
  const auto& bounds = by_name_.at(histogram)->bounds;
  size_t b = 0;
  while (b < bounds.size() && value > bounds[b]) ++b;
  ++s.buckets[b];
  s.sum += value;
  ++s.count;
}

double MetricsRegistry::value(const std::string& name, const MetricLabels& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) throw Error("metric '" + name + "' was not declared");
  const Family& f = *it->second;
  if (f.kind == Kind::CallbackGauge) return f.read();
  const auto s = f.series.find(render_labels(labels));
  if (s == f.series.end()) return 0;
  return f.kind == Kind::Histogram ? static_cast<double>(s->second.count) : s->second.value;
}

// `{a="1"}` plus one more label (le for buckets), or just it.
static std::string with_label(const std::string& rendered, const std::string& extra) {
  if (rendered.empty()) return extra.empty() ? "" : "{" + extra + "}";
  return "{" + rendered + (extra.empty() ? "" : "," + extra) + "}";
}

std::string MetricsRegistry::exposition() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  for (const auto& f : families_) {
    const char* type = f->kind == Kind::Counter ? "counter" : f->kind == Kind::Histogram ? "histogram" : "gauge";
    out += "# HELP " + f->name + " " + escape(f->help, false) + "\n";
    out += "# TYPE " + f->name + " " + type + "\n";
    if (f->kind == Kind::CallbackGauge) {
      out += f->name + " " + format_metric_value(f->read()) + "\n";
      continue;
    }
    for (const auto& [labels, s] : f->series) {
      if (f->kind != Kind::Histogram) {
        out += f->name + with_label(labels, "") + " " + format_metric_value(s.value) + "\n";
        continue;
      }
      unsigned long cumulative = 0;
      for (size_t b = 0; b <= f->bounds.size(); ++b) {
        cumulative += s.buckets[b];
        const std::string le = b < f->bounds.size() ? format_metric_value(f->bounds[b]) : "+Inf";
        out += f->name + "_bucket" + with_label(labels, "le=\"" + le + "\"") + " " + std::to_string(cumulative) + "\n";
      }
      out += f->name + "_sum" + with_label(labels, "") + " " + format_metric_value(s.sum) + "\n";
      out += f->name + "_count" + with_label(labels, "") + " " + std::to_string(s.count) + "\n";
    }
  }
  return out;
}

void add_process_metrics(MetricsRegistry& registry) {
  registry.add_callback_gauge("process_resident_memory_bytes", "Resident memory size in bytes.",
                              [] { return current_rss_mb() * 1024.0 * 1024.0; });
  registry.add_callback_gauge("process_resident_memory_max_bytes", "Peak resident memory size in bytes.",
                              [] { return peak_rss_mb() * 1024.0 * 1024.0; });
}

}  // namespace ocrforge
