// The c10d communicator over Gloo with ranks as threads: bucketed gradient
// averaging, parameter broadcast, metric sums, agreed stop, and the
// rendezvous failures (missing ranks named after the timeout, fingerprints
// that differ).
#include "ocrforge/train/dist/c10d_communicator.h"

#include <gtest/gtest.h>

#include <chrono>

#include "dist_fixture.h"
#include "ocrforge/core/error.h"

namespace ocrforge {
namespace {

Fingerprint fingerprint(int rank, const std::string& config_hash = "0x1") {
  Fingerprint f;
  f.rank = rank;
  f.host = "thread" + std::to_string(rank) + " 127.0.0.1";
  f.items = {{"ocrforge version", "test"}, {"config hash", config_hash}};
  return f;
}

// Several parameters of two dtypes, so that small buckets split them.
struct Net : torch::nn::Module {
  Net() {
    a = register_parameter("a", torch::zeros({300}));
    b = register_parameter("b", torch::zeros({5, 7}));
    c = register_parameter("c", torch::zeros({1000}));
    d = register_parameter("d", torch::zeros({3}, torch::kFloat64));
    frozen = register_parameter("frozen", torch::zeros({4}), /*requires_grad=*/false);
    buf = register_buffer("buf", torch::zeros({6}, torch::kInt64));
  }
  torch::Tensor a, b, c, d, frozen, buf;
};

TEST(C10dCommunicator, AveragesGradientsInBucketsAndBroadcastsFromRankZero) {
  const int port = free_loopback_port(), world = 3;
  const auto errors = test::run_ranks(world, [&](int rank) {
    C10dParams o;
    o.bucket_bytes = 2000;  // a: 1200 B, b: 140 B, c: 4000 B (alone), d: float64
    auto comm = make_c10d_communicator(test::loopback_env(rank, world, port), fingerprint(rank), o);
    ASSERT_EQ(comm->rank(), rank);
    ASSERT_EQ(comm->world_size(), world);
    Net net;
    {
      torch::NoGradGuard g;
      for (auto& p : net.parameters()) p.fill_(rank + 10.0);
      net.buf.fill_(rank + 100);
    }
    comm->broadcast_parameters(net);
    for (auto& p : net.parameters()) EXPECT_TRUE(torch::all(p == 10).item<bool>());
    EXPECT_TRUE(torch::all(net.buf == 100).item<bool>());

    for (auto* p : {&net.a, &net.b, &net.c, &net.d})  // gradient of rank r: r + 1 and a position ramp
      p->mutable_grad() = torch::arange(p->numel(), p->options()).view(p->sizes()) + (rank + 1.0);
    comm->average_gradients(net);
    for (auto* p : {&net.a, &net.b, &net.c, &net.d}) {
      const auto expected = torch::arange(p->numel(), p->options()).view(p->sizes()) + 2.0;  // mean of 1, 2, 3
      EXPECT_TRUE(torch::allclose(p->grad(), expected)) << p->sizes();
    }
    EXPECT_FALSE(net.frozen.grad().defined());

    const auto sums = comm->sum({1.0, static_cast<double>(rank)});
    EXPECT_EQ(sums, (std::vector<double>{3.0, 3.0}));
    EXPECT_TRUE(comm->any(rank == 2));  // one rank saw a stop signal: all stop
    EXPECT_FALSE(comm->any(false));
    comm->barrier();
  });
  for (int r = 0; r < world; ++r) EXPECT_EQ(errors[static_cast<size_t>(r)], "") << "rank " << r;
}

TEST(C10dCommunicator, RendezvousNamesTheRanksThatNeverJoined) {
  const int port = free_loopback_port();
  const auto t0 = std::chrono::steady_clock::now();
  // World of 3, rank 2 never starts.
  const auto errors = test::run_ranks(2, [&](int rank) {
    DistEnv env = test::loopback_env(rank, 3, port, /*timeout_s=*/2);
    env.rank_hosts = {"10.0.0.1", "10.0.0.1", "10.0.0.2"};
    make_c10d_communicator(env, fingerprint(rank));
  });
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 10);
  for (const auto& e : errors) {
    EXPECT_NE(e.find("rendezvous timed out after 2 s"), std::string::npos) << e;
    EXPECT_NE(e.find("1 of 3 ranks never joined: rank 2 (node 10.0.0.2)"), std::string::npos) << e;
  }
}

TEST(C10dCommunicator, RefusesToTrainWhenFingerprintsDiffer) {
  const int port = free_loopback_port();
  const auto errors = test::run_ranks(2, [&](int rank) {
    make_c10d_communicator(test::loopback_env(rank, 2, port), fingerprint(rank, rank == 0 ? "0xaa" : "0xbb"));
  });
  for (const auto& e : errors) {
    EXPECT_NE(e.find("refusing to train"), std::string::npos) << e;
    EXPECT_NE(e.find("config hash differs: 0xaa on rank 0 (thread0 127.0.0.1); 0xbb on rank 1 (thread1 127.0.0.1)"),
              std::string::npos)
        << e;
  }
}

TEST(C10dCommunicator, ReportsAnUnreachableStore) {
  const int port = free_loopback_port();  // nobody hosts the store there
  try {
    make_c10d_communicator(test::loopback_env(1, 2, port, 1), fingerprint(1));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("could not reach the rendezvous store at 127.0.0.1:" + std::to_string(port)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ocrforge
