#include "ocrforge/serve/metrics.h"

#include <gtest/gtest.h>

#include <thread>

#include "ocrforge/core/error.h"

using namespace ocrforge;

TEST(Metrics, CounterAndGaugeSeriesInTextFormat) {
  MetricsRegistry m;
  m.add_counter("app_requests_total", "Requests by route.");
  m.add_gauge("app_in_flight", "Requests now.");
  m.inc("app_requests_total", {{"route", "/ocr"}, {"status", "200"}});
  m.inc("app_requests_total", {{"route", "/ocr"}, {"status", "200"}}, 2);
  m.inc("app_requests_total", {{"route", "/ocr"}, {"status", "503"}});
  m.set("app_in_flight", {}, 3);
  m.add("app_in_flight", {}, -1);
  const std::string text = m.exposition();
  EXPECT_NE(text.find("# HELP app_requests_total Requests by route.\n# TYPE app_requests_total counter\n"), std::string::npos) << text;
  EXPECT_NE(text.find("app_requests_total{route=\"/ocr\",status=\"200\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("app_requests_total{route=\"/ocr\",status=\"503\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE app_in_flight gauge\napp_in_flight 2\n"), std::string::npos) << text;
  EXPECT_EQ(m.value("app_requests_total", {{"route", "/ocr"}, {"status", "200"}}), 3);
}

TEST(Metrics, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  MetricsRegistry m;
  m.add_histogram("lat_seconds", "Latency.", {0.1, 1});
  for (double v : {0.05, 0.1, 0.5, 7.0}) m.observe("lat_seconds", {{"route", "a"}}, v);
  const std::string text = m.exposition();
  EXPECT_NE(text.find("lat_seconds_bucket{route=\"a\",le=\"0.1\"} 2\n"), std::string::npos) << text;  // 0.1 is <= 0.1
  EXPECT_NE(text.find("lat_seconds_bucket{route=\"a\",le=\"1\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_bucket{route=\"a\",le=\"+Inf\"} 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_sum{route=\"a\"} 7.65\n"), std::string::npos) << text;
  EXPECT_NE(text.find("lat_seconds_count{route=\"a\"} 4\n"), std::string::npos) << text;
}

TEST(Metrics, LabelValuesAndHelpAreEscaped) {
  MetricsRegistry m;
  m.add_counter("c_total", "a\\b\nc");
  m.inc("c_total", {{"path", "say \"hi\"\\\n"}});
  const std::string text = m.exposition();
  EXPECT_NE(text.find("# HELP c_total a\\\\b\\nc\n"), std::string::npos) << text;
  EXPECT_NE(text.find("c_total{path=\"say \\\"hi\\\"\\\\\\n\"} 1\n"), std::string::npos) << text;
}

TEST(Metrics, MisuseIsAnErrorNamingTheMetric) {
  MetricsRegistry m;
  m.add_counter("c_total", "x");
  EXPECT_THROW(m.add_counter("c_total", "again"), Error);
  EXPECT_THROW(m.add_gauge("bad-name", "x"), Error);
  EXPECT_THROW(m.inc("nope_total"), Error);
  EXPECT_THROW(m.set("c_total", {}, 1), Error);          // a counter is not a gauge
  EXPECT_THROW(m.inc("c_total", {}, -1), Error);         // counters only go up
  EXPECT_THROW(m.inc("c_total", {{"bad label", "v"}}), Error);
  EXPECT_THROW(m.add_histogram("h", "x", {1, 0.5}), Error);
  try {
    m.inc("nope_total");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope_total"), std::string::npos);
  }
}

TEST(Metrics, CallbackGaugeIsReadAtExposition) {
  MetricsRegistry m;
  double level = 1.5;
  m.add_callback_gauge("queue_length", "Waiting.", [&level] { return level; });
  EXPECT_NE(m.exposition().find("queue_length 1.5\n"), std::string::npos);
  level = 4;
  EXPECT_NE(m.exposition().find("queue_length 4\n"), std::string::npos);
  add_process_metrics(m);
  EXPECT_GT(m.value("process_resident_memory_bytes"), 1e6);  // this test process holds more than 1 MB
}

TEST(Metrics, ConcurrentUpdatesAreAllCounted) {
  MetricsRegistry m;
  m.add_counter("n_total", "x");
  m.add_histogram("h_seconds", "x", {1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&m, t] {
      for (int i = 0; i < 1000; ++i) {
        m.inc("n_total", {{"t", std::to_string(t % 2)}});
        m.observe("h_seconds", {}, 0.5);
        if (i % 100 == 0) m.exposition();
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(m.value("n_total", {{"t", "0"}}) + m.value("n_total", {{"t", "1"}}), 4000);
  EXPECT_EQ(m.value("h_seconds"), 4000);
}

TEST(Metrics, ValuesAreWrittenRoundTrip) {
  EXPECT_EQ(format_metric_value(0.1), "0.1");
  EXPECT_EQ(format_metric_value(1e-7), "1e-07");
  EXPECT_EQ(format_metric_value(3), "3");
  EXPECT_EQ(format_metric_value(1.0 / 0.0), "+Inf");
}
