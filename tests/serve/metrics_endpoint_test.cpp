#include "ocrforge/serve/metrics_endpoint.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include "ocrforge/core/error.h"

using namespace ocrforge;

// The component a training run uses for its Prometheus monitor: a registry
// served on its own port, stopped with the object.
TEST(MetricsEndpoint, ServesTheRegistryAndStops) {
  MetricsRegistry m;
  m.add_gauge("train_loss", "Loss of the last step.");
  m.set("train_loss", {{"part", "ctc"}}, 0.25);
  int port = 0;
  {
    MetricsEndpoint endpoint(m, "127.0.0.1", 0);
    port = endpoint.port();
    ASSERT_GT(port, 0);
    httplib::Client client("127.0.0.1", port);
    auto res = client.Get("/metrics");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), kPrometheusContentType);
    EXPECT_NE(res->body.find("train_loss{part=\"ctc\"} 0.25\n"), std::string::npos) << res->body;
    m.set("train_loss", {{"part", "ctc"}}, 0.125);  // scrapes see updates
    EXPECT_NE(client.Get("/metrics")->body.find("train_loss{part=\"ctc\"} 0.125\n"), std::string::npos);
    EXPECT_EQ(client.Get("/other")->status, 404);
  }
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(std::chrono::milliseconds(500));
  EXPECT_FALSE(client.Get("/metrics")) << "the endpoint must stop with the object";
}

TEST(MetricsEndpoint, BusyPortIsAClearError) {
  MetricsRegistry m;
  MetricsEndpoint first(m, "127.0.0.1", 0);
  try {
    MetricsEndpoint second(m, "127.0.0.1", first.port());
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(first.port())), std::string::npos) << e.what();
  }
}

TEST(MetricsEndpoint, DestroyedRightAfterStartDoesNotHang) {
  MetricsRegistry m;
  for (int i = 0; i < 20; ++i) MetricsEndpoint endpoint(m, "127.0.0.1", 0);
}
